import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The boundaries docs/architecture.md draws, checked on the source: each table is written and read in SQL only
 * by the module that owns it, "published" is defined once, only the storage service touches the file system of
 * the media store and only the ffmpeg runner spawns processes. Tooling that builds or saves whole databases
 * (migrations, seeds, backups: tar, pg_dump) is outside the rule; the benchmarks live outside backend/src (backend/bench).
 */
const SRC = __dirname;

/** Table → the folder of backend/src that owns it. */
const OWNERS: Record<string, string> = {
  users: 'auth',
  sessions: 'auth',
  videos: 'videos',
  video_categories: 'videos',
  video_performers: 'videos',
  video_tags: 'videos',
  video_captions: 'videos',
  video_daily_stats: 'videos',
  applied_counter_batches: 'videos',
  site_daily_stats: 'videos',
  site_rankings: 'videos',
  categories: 'taxa',
  performers: 'taxa',
  tags: 'taxa',
  tag_synonyms: 'taxa',
  hidden_topics: 'taxa',
  bookmarks: 'lists',
  watch_later_items: 'lists',
  likes: 'lists',
  history_entries: 'lists',
  performer_follows: 'lists',
  playlists: 'playlists',
  playlist_items: 'playlists',
  ingest_jobs: 'jobs',
  scheduled_tasks: 'jobs',
  removal_requests: 'removal-requests',
  hls_keys: 'media',
  ad_zones: 'ads',
  ad_zone_daily_stats: 'ads',
  ad_member_impressions: 'ads',
};

/** Folders that build whole databases: every table is theirs by design. */
const TOOLING = new Set(['database']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({
  file: path.relative(SRC, file),
  folder: path.relative(SRC, file).split(path.sep)[0],
  text: readFileSync(file, 'utf8'),
}));

/**
 * Caches that no write of the application's data can make wrong, and why; every other cache declares the change
 * events that evict it (InvalidationBus.declareCache) or keeps its entries against the catalogue's stamp
 * (CatalogueCache.stamp and isCurrent). docs/operating.md › Caches › "Change events".
 */
const WRITE_FREE_CACHES: Record<string, string> = {
  [path.join('auth', 'auth.service.ts')]: "the auth module's own last reads of users and sessions, answered only during an outage (1 h)",
  [path.join('web', 'share-image.ts')]: 'image sizes by file: a new picture is a new file name',
  [path.join('media', 'storage.service.ts')]: "playlists read from files, each checked against its file's modification time",
  [path.join('common', 'redis', 'window-counts.ts')]: 'rate counts of this process while Redis is down',
  [path.join('common', 'http', 'read-budget.ts')]: 'read counts per network (a rate limit)',
  [path.join('common', 'utils', 'client-ip.ts')]: 'parsed networks of the trusted-proxy setting',
  [path.join('videos', 'catalogue', 'title-index.ts')]: "the index's own recent matches, each checked against its membership version (SearchIndex applies the announcements to the index)",
};

/** Who announces which change: the owner of what changed, nobody else. */
const ANNOUNCERS: Record<string, string[]> = {
  [path.join('videos', 'videos.repository.ts')]: ['VideoChanged', 'CountsFlushed', 'RankingRecomputed'],
  [path.join('taxonomy', 'taxonomy.service.ts')]: ['TaxaChanged'],
  [path.join('taxonomy', 'tags.service.ts')]: ['TaxaChanged'],
  [path.join('taxonomy', 'hidden-topics.service.ts')]: ['HiddenTopicsChanged'],
  [path.join('admin', 'admin.service.ts')]: ['CachesCleared'],
  [path.join('media', 'media-placements.service.ts')]: ['MediaPlaced'],
  [path.join('ads', 'ad-zones.service.ts')]: ['AdZonesChanged'],
};

/**
 * Calls that empty a dependency's cache (a member of a cache's type given to the class's constructor): a cache
 * cleared by hand rather than by the change events it declares.
 */
function clearedByHand(text: string): string[] {
  return text.split(/\bclass\s+\w+/).flatMap((body) => {
    const injected = new Set<string>();
    for (const constructor of body.matchAll(/constructor\(([\s\S]*?)\)\s*\{/g)) {
      for (const param of constructor[1].matchAll(/(?:private|protected|public)\s+(?:readonly\s+)?(\w+)\??\s*:\s*(\w+)/g)) {
        if (/(?:Cache|Store|Answers|Index|Bus)$/.test(param[2])) injected.add(param[1]);
      }
    }
    return [...body.matchAll(/this\.(\w+)(\??)\.(clear|delete|purgeStale|reset|evict\w*|forget\w*)\(/g)]
      .filter((m) => injected.has(m[1]))
      .map((m) => `this.${m[1]}${m[2]}.${m[3]}(`);
  });
}

/** The HTTP layer, by file name: controllers, guards, pipes, filters, decorators, middleware, interceptors. */
const HTTP_LAYER = /\.(?:controller|guard|pipe|filter|decorators?|middleware|interceptor)\.ts$|^common[\\/](?:guards|pipes|filters|decorators|http)[\\/]/;
/** HTTP-layer files whose names do not say so. */
const HTTP_LAYER_FILES = new Set([
  path.join('videos', 'counters', 'direct-counting.ts'), // the counting routes as one Express handler, with their guard
]);
/** Whether the file takes Nest's HTTP exceptions (what it then throws or catches). */
const usesHttpExceptions = (text: string): boolean =>
  [...text.matchAll(/import \{([^}]*)\} from '@nestjs\/common'/g)].some((m) => /\b\w*Exception\b/.test(m[1]));

const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_]+)\b/g;

describe('architecture', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => f.file === path.join('videos', 'videos.repository.ts'))).toBe(true);
  });

  it('has SQL on each table only in the module that owns it', () => {
    const trespasses = files
      .filter((f) => !TOOLING.has(f.folder))
      .flatMap((f) =>
        [...f.text.matchAll(SQL_TABLE)]
          .map((m) => m[1])
          .filter((table) => OWNERS[table] !== undefined && OWNERS[table] !== f.folder)
          .map((table) => `${f.file}: ${table} (owned by ${OWNERS[table]})`),
      );
    expect(trespasses).toEqual([]);
  });

  it('catches a trespass (the check itself works)', () => {
    const text = "await db.query(`SELECT id FROM videos WHERE status = 'ready'`)";
    expect([...text.matchAll(SQL_TABLE)].map((m) => m[1])).toEqual(['videos']);
  });

  it('defines "published" once', () => {
    const places = files
      .filter((f) => !TOOLING.has(f.folder) && /status\s*=\s*'ready'/.test(f.text))
      .map((f) => f.file);
    expect(places).toEqual([path.join('videos', 'videos.repository.ts')]);
  });

  it('touches the file system of the media store only in the storage service and the store drivers', () => {
    // Not media files: the embedded database's folder, the built web client's, the exported OpenAPI file, the
    // install's secrets file and DATA_DIR's modes, the web client's build (read once at start).
    const allowed = new Set([
      path.join('config', 'install-secrets.ts'),
      path.join('config', 'data-dir.ts'),
      path.join('media', 'storage.service.ts'),
      path.join('media', 'store', 'disk-media-store.ts'),
      path.join('media', 'store', 's3-media-store.ts'),
      path.join('database', 'pglite-pool.ts'),
      'app.module.ts',
      path.join('openapi', 'export-openapi.ts'),
      path.join('web', 'web-build.ts'),
    ]);
    const users = files
      .filter((f) => !TOOLING.has(f.folder) && /from 'node:fs(?:\/promises)?'/.test(f.text) && !allowed.has(f.file))
      .map((f) => f.file);
    expect(users).toEqual([]);
  });

  it('has every cache declare what evicts it, or say why no write can make it wrong', () => {
    const undeclared = files
      .filter((f) => /new LRUCache\b/.test(f.text))
      .filter((f) => !f.text.includes('declareCache(') && !/\.(?:isCurrent|stamp)\(/.test(f.text) && WRITE_FREE_CACHES[f.file] === undefined)
      .map((f) => f.file);
    expect(undeclared).toEqual([]);
    // The list holds only caches that exist.
    for (const file of Object.keys(WRITE_FREE_CACHES)) expect(files.find((f) => f.file === file)?.text).toMatch(/new LRUCache\b/);
  });

  it('clears no cache by hand: no object empties another\'s, and changes are announced only by their owners', () => {
    const byHand = files.flatMap((f) => clearedByHand(f.text).map((call) => `${f.file}: ${call}`));
    expect(byHand).toEqual([]);
    const publishers = files.filter((f) => /\bbus\.publish\(/.test(f.text)).map((f) => f.file).sort();
    expect(publishers).toEqual(Object.keys(ANNOUNCERS).sort());
    for (const [file, types] of Object.entries(ANNOUNCERS)) {
      const text = files.find((f) => f.file === file)!.text;
      const announced = [...text.matchAll(/type: '([A-Za-z]+)'/g)].map((m) => m[1]).filter((type) => /^[A-Z]/.test(type));
      expect([...new Set(announced)].sort(), file).toEqual([...types].sort());
    }
  });

  it('catches a cache cleared by hand (the check itself works)', () => {
    const text = `class A {
      constructor(private readonly cache: CatalogueCache, @Optional() private readonly staleReads?: StaleReadsStore, bus: InvalidationBus) {}
      edit() { this.cache.clear(); this.staleReads?.clear(); this.own.clear(); this.cache.delete(1); this.cache.rowsOf([1]); }
    }`;
    expect(clearedByHand(text)).toEqual(['this.cache.clear(', 'this.staleReads?.clear(', 'this.cache.delete(']);
  });

  it('throws HTTP exceptions only in the HTTP layer: services and everything below them throw domain errors', () => {
    const below = files
      .filter((f) => !TOOLING.has(f.folder) && !HTTP_LAYER.test(f.file) && !HTTP_LAYER_FILES.has(f.file))
      .filter((f) => usesHttpExceptions(f.text))
      .map((f) => f.file);
    expect(below).toEqual([]);
    expect(usesHttpExceptions("import { Injectable, NotFoundException } from '@nestjs/common';")).toBe(true);
    expect(usesHttpExceptions("import { HttpException, Injectable } from '@nestjs/common';")).toBe(true);
    expect(usesHttpExceptions("import { Injectable } from '@nestjs/common';")).toBe(false);
  });

  it("lists the modules' layers in docs/architecture.md as dependency-cruiser checks them (backend/module-layers.json)", () => {
    const { layers } = JSON.parse(readFileSync(path.join(SRC, '..', 'module-layers.json'), 'utf8')) as { layers: string[] };
    const docs = readFileSync(path.join(SRC, '..', '..', 'docs', 'architecture.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Layers'), docs.indexOf('\n## ', docs.indexOf('## Layers') + 1));
    expect([...section.matchAll(/^\d+\. `([a-z-]+)`/gm)].map((m) => m[1])).toEqual(layers);
    // Every folder of src with code has its layer (the seeds are database/seeds; types holds declarations only).
    const folders = [...new Set(files.map((f) => f.folder).filter((folder) => !folder.endsWith('.ts')))].sort();
    expect(folders).toEqual(layers.filter((layer) => layer !== 'seeds').sort());
  });

  it('spawns processes only in the ffmpeg runner', () => {
    const spawners = files
      .filter((f) => !TOOLING.has(f.folder) && /from 'node:child_process'/.test(f.text))
      .map((f) => f.file);
    expect(spawners).toEqual([path.join('media', 'ffmpeg.runner.ts')]);
  });
});
