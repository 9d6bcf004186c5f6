import { Controller, Get, Header, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../common/decorators/auth.decorators';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { sendFile } from './built-file';
import { siteOf } from '../common/http/site-identity';
import { SitemapsService } from './sitemaps.service';
import { ApiError, ApiPublic } from '../openapi/openapi.decorators';

export const XML_TYPE = 'application/xml; charset=utf-8';
/** Sitemaps follow the catalogue within a minute (docs/seo.md, "Sitemaps and robots.txt"); so may shared copies. */
export const SITEMAP_CACHE_CONTROL = 'public, max-age=60';
export const ROBOTS_CACHE_CONTROL = 'public, max-age=3600';

/** The crawlers' files, at the site's root rather than under /api (app.factory excludes them from the prefix). */
export const SEO_ROUTES = ['robots.txt', 'sitemap.xml', 'sitemaps/:file'];

@ApiTags('seo')
// Crawlers' files are never counted in the read budget (read-budget.ts).
@ApiPublic({ readBudget: false })
@Public()
@Controller()
export class SeoController {
  constructor(
    private readonly sitemaps: SitemapsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('robots.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', ROBOTS_CACHE_CONTROL)
  @ApiPublic({ readBudget: false, dependencies: false })
  @ApiOperation({ summary: 'robots.txt' })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Keeps crawlers out of the API, search, member, sign-in, playlist and admin pages; names /sitemap.xml',
    schema: { type: 'string' },
  })
  robots(@Req() req: Request): string {
    return this.sitemaps.robots(siteOf(req, this.config).origin);
  }

  @Get('sitemap.xml')
  @ApiOperation({ summary: 'The sitemap index' })
  @ApiProduces('application/xml')
  @ApiOkResponse({ description: 'Sitemap index: every video, category and performer sitemap file', schema: { type: 'string' } })
  async index(@Req() req: Request, @Res() res: Response): Promise<void> {
    const file = await this.sitemaps.index(siteOf(req, this.config));
    await sendFile(req, res, file, XML_TYPE, SITEMAP_CACHE_CONTROL);
  }

  @Get('sitemaps/:file')
  @ApiProduces('application/xml')
  @ApiOperation({ summary: 'A sitemap file' })
  @ApiParam({ name: 'file', description: '`videos-{n}.xml`, `categories-{n}.xml`, `performers-{n}.xml` or `tags-{n}.xml`, as the index lists them', example: 'videos-1.xml' })
  @ApiOkResponse({
    description: 'A sitemap of at most SITEMAP_URLS_PER_FILE URLs: watch pages with their video entries, or category or performer pages',
    schema: { type: 'string' },
  })
  @ApiError(404, 'No such file (or no published video left in its block of ids)')
  async file(@Req() req: Request, @Res() res: Response, @Param('file') name: string): Promise<void> {
    const file = await this.sitemaps.file(siteOf(req, this.config), name);
    await sendFile(req, res, file, XML_TYPE, SITEMAP_CACHE_CONTROL);
  }
}
