import { Body, Controller, Get, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public, Roles } from '../common/decorators/auth.decorators';
import { PublicCache } from '../common/http/http-caching';
import { StaleReadsInterceptor } from '../common/http/stale-reads';
import { CreatedTaxonDto, CreateTaxonDto, RenameTaxonDto } from './dto/create-taxon.dto';
import { TaxonListDto } from './dto/taxon.dto';
import { TaxonomyService } from './taxonomy.service';
import { ApiAdmin, ApiError, ApiPublic } from '../openapi/openapi.decorators';

const BAD_NAME = 'Empty name, a name without a letter or digit, or one over 100 characters';

@ApiTags('catalogue')
@ApiPublic()
@Controller()
export class TaxonomyController {
  constructor(private readonly taxonomy: TaxonomyService) {}

  @Get('categories')
  @Public()
  @PublicCache()
  @UseInterceptors(StaleReadsInterceptor)
  @ApiOperation({ summary: 'Every category with its count of published videos' })
  @ApiResponse({ status: 200, type: TaxonListDto })
  async categories(): Promise<TaxonListDto> {
    return { data: await this.taxonomy.list('categories') };
  }

  @Get('performers')
  @Public()
  @PublicCache()
  @UseInterceptors(StaleReadsInterceptor)
  @ApiOperation({ summary: 'Every performer with their count of published videos' })
  @ApiResponse({ status: 200, type: TaxonListDto })
  async performers(): Promise<TaxonListDto> {
    return { data: await this.taxonomy.list('performers') };
  }

  @Post('categories')
  @Roles('admin')
  @ApiAdmin()
  @ApiOperation({ summary: 'Create a category (its id derived from the name)' })
  @ApiCreatedResponse({ type: CreatedTaxonDto })
  @ApiError(400, BAD_NAME)
  @ApiError(409, 'A category with this id, or another one with this name, exists')
  createCategory(@Body() dto: CreateTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.create('categories', dto.name);
  }

  @Post('performers')
  @Roles('admin')
  @ApiAdmin()
  @ApiOperation({ summary: 'Create a performer (their id derived from the name)' })
  @ApiCreatedResponse({ type: CreatedTaxonDto })
  @ApiError(400, BAD_NAME)
  @ApiError(409, 'A performer with this id, or another one with this name, exists')
  createPerformer(@Body() dto: CreateTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.create('performers', dto.name);
  }

  @Patch('admin/categories/:id')
  @Roles('admin')
  @ApiAdmin()
  @ApiOperation({ summary: 'Rename a category' })
  @ApiOkResponse({ type: CreatedTaxonDto, description: 'Renamed; the id is unchanged' })
  @ApiError(400, BAD_NAME)
  @ApiError(404, 'No category with this id')
  @ApiError(409, 'Another category has this name')
  renameCategory(@Param('id') id: string, @Body() dto: RenameTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.rename('categories', id, dto.name);
  }

  @Patch('admin/performers/:id')
  @Roles('admin')
  @ApiAdmin()
  @ApiOperation({ summary: 'Rename a performer' })
  @ApiOkResponse({ type: CreatedTaxonDto, description: 'Renamed; the id is unchanged' })
  @ApiError(400, BAD_NAME)
  @ApiError(404, 'No performer with this id')
  @ApiError(409, 'Another performer has this name')
  renamePerformer(@Param('id') id: string, @Body() dto: RenameTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.rename('performers', id, dto.name);
  }
}
