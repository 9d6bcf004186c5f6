import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { brandTitle } from '@hunktube/shared';
import { LRUCache } from 'lru-cache';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TaxonomyService } from '../taxonomy/taxonomy.service';
import { CACHE_MAX_AGE_MS, CatalogueCache, sweepExpired } from '../videos/catalogue-cache';
import { posterPathOf } from '../common/media-paths';
import type { TaxonKind } from '../taxa/taxa.repository';
import { type SitemapVideoRow, VideosRepository } from '../videos/videos.repository';
import type { SiteIdentity } from '../common/http/site-identity';
import { type BuiltFile, buildFile } from './built-file';
import {
  describeVideo, pageUrlXml, robotsTxt, sitemapIndexXml, URLSET_CLOSE, URLSET_OPEN, videoUrlXml,
} from './sitemap-xml';
import { NotFoundError } from '../common/errors/domain-errors';

/** Built files kept, gzipped: a 50,000-video file is about 1.5 MB, so some 40 such files. */
export const SITEMAP_CACHE_MAX_BYTES = 64 * 1024 ** 2;

const TAXA: readonly TaxonKind[] = ['categories', 'performers', 'tags'];
/** A sitemap file's name: `videos-{n}.xml`, `categories-{n}.xml`, `performers-{n}.xml` or `tags-{n}.xml`, n from 1. */
const FILE_NAME = /^(videos|categories|performers|tags)-([1-9]\d{0,8})\.xml$/;

interface Kept {
  file: BuiltFile;
  /** The catalogue's version it was built from. */
  catalogue: number;
}

/**
 * robots.txt, the sitemap index and the sitemap files (docs/seo.md, "Sitemaps and robots.txt"). Video files cover
 * fixed blocks of SITEMAP_URLS_PER_FILE ids, so a block is one range read of the primary key and a publish,
 * edit or delete changes what one file says. Built files are kept gzipped while the catalogue's version (global:
 * any change has every file built again on its next request) is the one
 * they were built from, for CACHE_MAX_AGE_MS at most (what bounds the lag of view counts, which a counter flush
 * does not announce as a catalogue change); nothing is kept while the catalogue cache is not usable.
 */
@Injectable()
export class SitemapsService implements OnModuleDestroy {
  private readonly perFile: number;
  private readonly built = new LRUCache<string, Kept>({
    maxSize: SITEMAP_CACHE_MAX_BYTES,
    sizeCalculation: (kept) => kept.file.gzip.length + 256,
    ttl: CACHE_MAX_AGE_MS,
  });
  /** Builds under way, so that crawlers asking for one file at once make one build. */
  private readonly building = new Map<string, Promise<BuiltFile | null>>();
  private readonly stopSweeping = sweepExpired(this.built);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly videos: VideosRepository,
    private readonly taxonomy: TaxonomyService,
    private readonly cache: CatalogueCache,
  ) {
    this.perFile = config.sitemapUrlsPerFile;
  }

  onModuleDestroy(): void {
    this.stopSweeping();
  }

  /** Built files kept now (one per brand, origin and file): what a made-up Host must never add to. */
  get keptFiles(): number {
    return this.built.size;
  }

  robots(origin: string): string {
    return robotsTxt(origin);
  }

  /** The sitemap index: every video file, then the category, performer and tag files. */
  async index(site: Pick<SiteIdentity, 'brand' | 'origin'>): Promise<BuiltFile> {
    const { origin } = site;
    const file = await this.kept(`${site.brand} ${origin} index`, async () => {
      const [blocks, ...taxa] = await Promise.all([this.blocks(), ...TAXA.map((kind) => this.taxonPages(kind))]);
      const locs = [
        ...blocks.map((n) => `${origin}/sitemaps/videos-${n}.xml`),
        ...TAXA.flatMap((kind, i) => this.chunks(taxa[i].length).map((n) => `${origin}/sitemaps/${kind}-${n}.xml`)),
      ];
      return buildFile([sitemapIndexXml(locs)]);
    });
    return file as BuiltFile;
  }

  /** One sitemap file by name; 404 for a name that is not one, or a file the index does not list. */
  async file(site: Pick<SiteIdentity, 'brand' | 'origin'>, name: string): Promise<BuiltFile> {
    const match = FILE_NAME.exec(name);
    if (!match) throw new NotFoundError('No such sitemap');
    const [, kind, number] = match;
    const n = Number(number);
    const file = await this.kept(`${site.brand} ${site.origin} ${name}`, () =>
      kind === 'videos' ? this.videoFile(site, n) : this.taxonFile(site.origin, kind as TaxonKind, n),
    );
    if (!file) throw new NotFoundError('No such sitemap');
    return file;
  }

  private async videoFile(site: Pick<SiteIdentity, 'brand' | 'origin'>, block: number): Promise<BuiltFile | null> {
    if (!(await this.blocks()).includes(block)) return null;
    const [rows, categories, performers, tags] = await Promise.all([
      this.videos.publishedBlock(block, this.perFile),
      this.names('categories'),
      this.names('performers'),
      this.names('tags'),
    ]);
    if (rows.length === 0) return null;
    const entries = function* (this: SitemapsService) {
      yield URLSET_OPEN;
      for (const row of rows) yield this.videoXml(site, row, { categories, performers, tags });
      yield URLSET_CLOSE;
    };
    return buildFile(entries.call(this));
  }

  private videoXml(site: Pick<SiteIdentity, 'brand' | 'origin'>, row: SitemapVideoRow, names: Record<TaxonKind, Map<string, string>>): string {
    const { origin } = site;
    const categoryNames = row.categories.flatMap((id) => names.categories.get(id) ?? []);
    const performerNames = row.performers.flatMap((id) => names.performers.get(id) ?? []);
    const tagNames = row.tags.flatMap((id) => names.tags.get(id) ?? []);
    // The title the brand shows (the web client's brandTitle): its own when set, else the main one.
    const title = brandTitle(row, site.brand);
    return videoUrlXml({
      loc: `${origin}/video/${row.id}`,
      thumbnailLoc: this.imageUrl(origin, row),
      title,
      description: describeVideo(title, performerNames, categoryNames),
      playerLoc: `${origin}/embed/${row.id}`,
      duration: row.duration,
      viewCount: row.views,
      publicationDate: new Date(row.upload_date),
      tags: [...categoryNames, ...performerNames, ...tagNames],
    });
  }

  private async taxonFile(origin: string, kind: TaxonKind, n: number): Promise<BuiltFile | null> {
    const pages = (await this.taxonPages(kind)).slice((n - 1) * this.perFile, n * this.perFile);
    if (pages.length === 0) return null;
    const route = kind; // the web client's /categories/{id}, /performers/{id} and /tags/{id}
    return buildFile([URLSET_OPEN, ...pages.map((id) => pageUrlXml(`${origin}/${route}/${encodeURIComponent(id)}`)), URLSET_CLOSE]);
  }

  /**
   * The card's image as the web client shows it (resolveImageUrl: absolute kept, a path on IMAGE_HOST), made
   * absolute on this origin when IMAGE_HOST is empty; the poster the ingest made when the card has none.
   */
  private imageUrl(origin: string, row: SitemapVideoRow): string | null {
    const path = row.thumbnail?.trim() || (row.media_ready ? posterPathOf(row.url) : '');
    if (!path) return null;
    const resolved = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i.test(path)
      ? path
      : `${this.config.imageHost}${path.startsWith('/') ? path : `/${path}`}`;
    try {
      const url = new URL(resolved, `${origin}/`);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch {
      return null;
    }
  }

  /** The id blocks holding published videos, kept with the catalogue's other derived answers. */
  private blocks(): Promise<number[]> {
    return this.cache.derive(`sitemap:blocks:${this.perFile}`, 'catalogue', () => this.videos.publishedIdBlocks(this.perFile));
  }

  /** The ids of the categories, performers or tags that have published videos: the pages worth listing. */
  private async taxonPages(kind: TaxonKind): Promise<string[]> {
    return (await this.taxonomy.list(kind)).filter((taxon) => taxon.video_count > 0).map((taxon) => taxon.id);
  }

  private async names(kind: TaxonKind): Promise<Map<string, string>> {
    return new Map((await this.taxonomy.list(kind)).map((taxon) => [taxon.id, taxon.name]));
  }

  private chunks(count: number): number[] {
    return Array.from({ length: Math.ceil(count / this.perFile) }, (_, i) => i + 1);
  }

  /**
   * The file kept under `key` while the catalogue has not changed since it was built; else `build`'s, kept
   * when nothing changed while it was built. Without a usable catalogue cache, built for every request.
   */
  private async kept(key: string, build: () => Promise<BuiltFile | null>): Promise<BuiltFile | null> {
    const stamp = this.cache.stamp();
    if (!stamp) return build();
    const kept = this.built.get(key);
    if (kept && kept.catalogue === stamp.catalogue) return kept.file;
    // A build started before a change is not handed to a request that came after it.
    const buildKey = `${key} @${stamp.catalogue}`;
    const under = this.building.get(buildKey);
    if (under) return under;
    const run = build().then((file) => {
      if (file && this.cache.stamp()?.catalogue === stamp.catalogue) this.built.set(key, { file, catalogue: stamp.catalogue });
      return file;
    });
    this.building.set(buildKey, run);
    try {
      return await run;
    } finally {
      this.building.delete(buildKey);
    }
  }
}
