import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public, Roles } from '../common/decorators/auth.decorators';
import { NotFoundError } from '../common/errors/domain-errors';
import { PublicCache } from '../common/http/http-caching';
import { StaleReadsInterceptor } from '../common/http/stale-reads';
import { ApiAdmin, ApiError, ApiPublic } from '../openapi/openapi.decorators';
import { CreatedTaxonDto, RenameTaxonDto } from './dto/create-taxon.dto';
import { CreatedTagSynonymDto, CreateTagSynonymDto, TagSynonymListDto } from './dto/tag-synonym.dto';
import { TaxonDto, TaxonListDto } from './dto/taxon.dto';
import { TAG_NOT_FOUND, TagsService } from './tags.service';
import { TaxonomyService } from './taxonomy.service';

/** Tags: the public list and one tag (a synonym answers as its tag), and the admin's renames, merges and removals. */
@ApiTags('catalogue')
@ApiPublic()
@Controller()
export class TagsController {
  constructor(
    private readonly taxonomy: TaxonomyService,
    private readonly tags: TagsService,
  ) {}

  @Get('tags')
  @Public()
  @PublicCache()
  @UseInterceptors(StaleReadsInterceptor)
  @ApiOperation({ summary: 'Every tag with its count of published videos, by name (synonyms are not listed: they answer as their tag)' })
  @ApiResponse({ status: 200, type: TaxonListDto })
  async list(): Promise<TaxonListDto> {
    return { data: await this.taxonomy.list('tags') };
  }

  @Get('tags/:id')
  @Public()
  @PublicCache()
  @UseInterceptors(StaleReadsInterceptor)
  @ApiOperation({ summary: 'One tag; a synonym answers as the tag it merges into (its id differs from the one asked for)' })
  @ApiResponse({ status: 200, type: TaxonDto })
  @ApiError(404, TAG_NOT_FOUND)
  async one(@Param('id') id: string): Promise<TaxonDto> {
    const tag = await this.tags.canonical(id);
    const listed = tag && (await this.taxonomy.list('tags')).find((entry) => entry.id === tag.id);
    if (!listed) throw new NotFoundError(TAG_NOT_FOUND);
    return listed;
  }

  @Patch('admin/tags/:id')
  @Roles('admin')
  @ApiAdmin()
  @ApiOperation({ summary: 'Rename a tag (its id, and so its address, stays)' })
  @ApiOkResponse({ type: CreatedTaxonDto, description: 'Renamed; the id is unchanged' })
  @ApiError(400, 'Empty name, a name without a letter or digit, or one over 100 characters')
  @ApiError(404, 'No tag with this id')
  @ApiError(409, 'Another tag has this name')
  rename(@Param('id') id: string, @Body() dto: RenameTaxonDto): Promise<CreatedTaxonDto> {
    return this.taxonomy.rename('tags', id, dto.name);
  }

  @Delete('admin/tags/:id')
  @Roles('admin')
  @ApiAdmin()
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a tag from every video, with its synonyms' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiError(404, TAG_NOT_FOUND)
  async remove(@Param('id') id: string): Promise<void> {
    await this.tags.remove(id);
  }

  @Get('admin/tag-synonyms')
  @Roles('admin')
  @ApiAdmin()
  @ApiOperation({ summary: 'Every tag synonym, by alias' })
  @ApiOkResponse({ type: TagSynonymListDto })
  async synonyms(): Promise<TagSynonymListDto> {
    return { data: await this.tags.listSynonyms() };
  }

  @Post('admin/tag-synonyms')
  @Roles('admin')
  @ApiAdmin()
  @ApiOperation({ summary: 'Map an alias to a tag (muscled → muscle); a tag existing under the alias is merged into it' })
  @ApiCreatedResponse({ type: CreatedTagSynonymDto })
  @ApiError(400, 'An alias without a letter or digit, or the tag itself')
  @ApiError(404, TAG_NOT_FOUND)
  addSynonym(@Body() dto: CreateTagSynonymDto): Promise<CreatedTagSynonymDto> {
    return this.tags.addSynonym(dto.alias, dto.tag);
  }

  @Delete('admin/tag-synonyms/:alias')
  @Roles('admin')
  @ApiAdmin()
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a synonym (videos merged by it keep the tag)' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiError(404, 'Tag synonym not found')
  async removeSynonym(@Param('alias') alias: string): Promise<void> {
    await this.tags.removeSynonym(alias);
  }
}
