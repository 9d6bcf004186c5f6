import { Body, Controller, Get, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public, Roles } from '../common/decorators/auth.decorators';
import { PublicCache } from '../common/http/http-caching';
import { StaleReadsInterceptor } from '../common/http/stale-reads';
import { CreatedTaxonDto, CreateTaxonDto, RenameTaxonDto } from './dto/create-taxon.dto';
import { TaxonListDto } from './dto/taxon.dto';
import { TaxonomyService } from './taxonomy.service';

@ApiTags('catalogue')
@Controller()
export class TaxonomyController {
  constructor(private readonly taxonomy: TaxonomyService) {}

  @Get('categories')
  @Public()
  @PublicCache()
  @UseInterceptors(StaleReadsInterceptor)
  @ApiResponse({ status: 200, type: TaxonListDto })
  async categories(): Promise<TaxonListDto> {
    return { data: await this.taxonomy.list('categories') };
  }

  @Get('performers')
  @Public()
  @PublicCache()
  @UseInterceptors(StaleReadsInterceptor)
  @ApiResponse({ status: 200, type: TaxonListDto })
  async performers(): Promise<TaxonListDto> {
    return { data: await this.taxonomy.list('performers') };
  }

  @Post('categories')
  @Roles('admin')
  @ApiBearerAuth()
  @ApiCreatedResponse({ type: CreatedTaxonDto })
  @ApiBadRequestResponse({ description: 'Empty name, a name without a letter or digit, or one over 100 characters' })
  @ApiUnauthorizedResponse({ description: 'No or bad token' })
  @ApiForbiddenResponse({ description: 'Not an admin' })
  @ApiConflictResponse({ description: 'A category with this id exists' })
  createCategory(@Body() dto: CreateTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.create('categories', dto.name);
  }

  @Post('performers')
  @Roles('admin')
  @ApiBearerAuth()
  @ApiCreatedResponse({ type: CreatedTaxonDto })
  @ApiBadRequestResponse({ description: 'Empty name, a name without a letter or digit, or one over 100 characters' })
  @ApiUnauthorizedResponse({ description: 'No or bad token' })
  @ApiForbiddenResponse({ description: 'Not an admin' })
  @ApiConflictResponse({ description: 'A performer with this id exists' })
  createPerformer(@Body() dto: CreateTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.create('performers', dto.name);
  }

  @Patch('admin/categories/:id')
  @Roles('admin')
  @ApiBearerAuth()
  @ApiOkResponse({ type: CreatedTaxonDto, description: 'Renamed; the id is unchanged' })
  @ApiBadRequestResponse({ description: 'Empty name, a name without a letter or digit, or one over 100 characters' })
  @ApiUnauthorizedResponse({ description: 'No or bad token' })
  @ApiForbiddenResponse({ description: 'Not an admin' })
  @ApiNotFoundResponse({ description: 'No category with this id' })
  @ApiConflictResponse({ description: 'Another category has this name' })
  renameCategory(@Param('id') id: string, @Body() dto: RenameTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.rename('categories', id, dto.name);
  }

  @Patch('admin/performers/:id')
  @Roles('admin')
  @ApiBearerAuth()
  @ApiOkResponse({ type: CreatedTaxonDto, description: 'Renamed; the id is unchanged' })
  @ApiBadRequestResponse({ description: 'Empty name, a name without a letter or digit, or one over 100 characters' })
  @ApiUnauthorizedResponse({ description: 'No or bad token' })
  @ApiForbiddenResponse({ description: 'Not an admin' })
  @ApiNotFoundResponse({ description: 'No performer with this id' })
  @ApiConflictResponse({ description: 'Another performer has this name' })
  renamePerformer(@Param('id') id: string, @Body() dto: RenameTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.rename('performers', id, dto.name);
  }
}
