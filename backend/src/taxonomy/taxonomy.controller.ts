import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { TaxonListDto } from './dto/taxon.dto';
import { TaxonomyService } from './taxonomy.service';

@ApiTags('catalogue')
@Public()
@Controller()
export class TaxonomyController {
  constructor(private readonly taxonomy: TaxonomyService) {}

  @Get('categories')
  async categories(): Promise<TaxonListDto> {
    return { data: await this.taxonomy.list('categories') };
  }

  @Get('performers')
  async performers(): Promise<TaxonListDto> {
    return { data: await this.taxonomy.list('performers') };
  }
}
