import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { touches, type VideoField } from '../../common/cache/change-events';
import { InvalidationBus } from '../../common/cache/invalidation-bus';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { published } from '../videos.repository';
import type { CatalogueReader } from './catalogue-reader';
import { IndexCatalogueReader } from './index-catalogue-reader';
import { toPrefixTsQuery } from './search-query';
import { type IndexedVideo, TitleIndex } from './title-index';

/** Rows read per query while the index is loaded: embedded PGlite runs each query on the event loop, so small batches keep the API answering between them. */
const LOAD_BATCH = 5_000;
/**
 * Everything is read again this often: a bound on what a write behind the owner's back (SQL by hand) or a lost
 * announcement can cost, and when the catalogue grows past SEARCH_INDEX_MIN_VIDEOS, the index starts.
 */
export const SEARCH_INDEX_RELOAD_MS = 10 * 60_000;
/** After a failed read (the database down), the index is read again this soon. */
const RETRY_MS = 5_000;
/** Searches normalised by PostgreSQL kept (the query text to its lexeme prefixes), some 2 MB at most. */
export const NORMALISED_QUERIES_MAX = 10_000;

const VIDEO_COLUMNS = `id, array_to_string(tsvector_to_array(search_vector), ' ') AS lexemes,
  (extract(epoch FROM upload_date) * 1000000)::int8 AS upload_us, views, likes, duration, trending_score, featured > 0 AS featured, rendition_height,
  COALESCE((SELECT json_agg(c.category_id) FROM video_categories c WHERE c.video_id = v.id), '[]') AS categories,
  COALESCE((SELECT json_agg(p.performer_id) FROM video_performers p WHERE p.video_id = v.id), '[]') AS performers,
  COALESCE((SELECT json_agg(t.tag_id) FROM video_tags t WHERE t.video_id = v.id), '[]') AS tags`;

interface VideoRow {
  id: number | string;
  lexemes: string;
  upload_us: number | string;
  views: number | string;
  likes: number | string;
  duration: number | string | null;
  trending_score: number | string;
  featured: boolean;
  rendition_height: number | string | null;
  /** JSON arrays of ids (parsed by the driver, or text). */
  categories: string[] | string;
  performers: string[] | string;
  tags: string[] | string;
}

/** The fields of a video the index holds (a change of its slug, url or thumbnail leaves it as it is; `media` holds its rendition height). */
const INDEXED_FIELDS: VideoField[] = [
  'title', 'atg_title', 'jtg_title', 'views', 'likes', 'featured', 'upload_date', 'status', 'duration', 'media', 'categories', 'performers', 'tags',
];

/** `off`: the catalogue is below SEARCH_INDEX_MIN_VIDEOS; `loading`: not (yet, or again) answering. */
export type SearchIndexState = 'ready' | 'loading' | 'off';

const toIndexed = (row: VideoRow): IndexedVideo => ({
  id: Number(row.id),
  lexemes: row.lexemes === '' ? [] : row.lexemes.split(' '),
  uploadUs: Number(row.upload_us),
  views: Number(row.views),
  likes: Number(row.likes),
  duration: row.duration === null ? null : Number(row.duration),
  trending: Number(row.trending_score),
  featured: row.featured,
  renditionHeight: row.rendition_height === null ? null : Number(row.rendition_height),
  categories: typeof row.categories === 'string' ? (JSON.parse(row.categories) as string[]) : row.categories,
  performers: typeof row.performers === 'string' ? (JSON.parse(row.performers) as string[]) : row.performers,
  tags: typeof row.tags === 'string' ? (JSON.parse(row.tags) as string[]) : row.tags,
});

/**
 * `to_tsquery`'s text of a prefix query as lexeme prefixes: `'hot':* & 'bear':*` → ['hot', 'bear'], '' (only stop
 * words) → []. Null for anything else (a word PostgreSQL split into a phrase, say), which is left to SQL.
 */
export function prefixesOf(tsquery: string): string[] | null {
  if (tsquery.trim() === '') return [];
  const prefixes: string[] = [];
  for (const part of tsquery.split(' & ')) {
    const match = /^'((?:[^'\\]|'')+)':\*$/.exec(part);
    if (!match) return null;
    prefixes.push(match[1].replaceAll("''", "'"));
  }
  return prefixes;
}

/**
 * The catalogue from memory, for catalogues where PostgreSQL's full text is slow: a common word's total and deep
 * pages cost work in proportion to its matches there (45 ms at 100,000 videos, about a second at 1,000,000).
 * Each API process keeps a TitleIndex of the published videos' lexemes, taxa, featured flag and sort keys, and
 * reads the catalogue through it (`reader`: an IndexCatalogueReader), loaded at start when the
 * catalogue has SEARCH_INDEX_MIN_VIDEOS published videos (below that the database answers as fast) and kept
 * current from the catalogue owner's announcements on the InvalidationBus:
 *
 * - a video published, edited, unpublished or deleted: its row is read again;
 * - a counter flush: the written videos' counts and trending scores are read again;
 * - a trending recompute: every score is read again;
 * - everything (the bus lost, an admin's clear-cache): the index is set aside and loaded again.
 *
 * A read first waits for the reads that announcements started, so an edit is found by the very next search, in
 * every process. Until the index is loaded, while the bus is not live, or for a query the index cannot answer
 * exactly (a word PostgreSQL splits into a phrase), reads go to the database. Results are PostgreSQL's exactly: the
 * query is normalised by `to_tsquery('english', …)` (kept per query text) and matched against the tsvector's own
 * lexemes, ordered by the same keys and ties.
 */
@Injectable()
export class SearchIndex implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SearchIndex.name);
  private index: TitleIndex | null = null;
  private readonly normalised = new LRUCache<string, { prefixes: string[] | null }>({ max: NORMALISED_QUERIES_MAX });
  private readonly pending = { videos: new Set<number>(), counts: new Set<number>(), trending: false };
  private applying: Promise<void> | null = null;
  /** While a load runs: the videos announced since it started, which it leaves to `apply`. */
  private loading: { changed: Set<number>; again: boolean } | null = null;
  private timer?: NodeJS.Timeout;
  private closed = false;
  /** The last load found fewer published videos than SEARCH_INDEX_MIN_VIDEOS. */
  private belowMinimum = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: InvalidationBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.declareEvictions(bus);
  }

  onApplicationBootstrap(): void {
    this.reloadEvery(SEARCH_INDEX_RELOAD_MS);
    void this.load();
  }

  onApplicationShutdown(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** Whether searches are answered from memory now. */
  get ready(): boolean {
    return this.index !== null && this.bus.live;
  }

  get state(): SearchIndexState {
    if (this.ready) return 'ready';
    return this.belowMinimum && !this.loading ? 'off' : 'loading';
  }

  /** How many videos are indexed and roughly how many bytes that holds (0 when not loaded). */
  get stats(): { videos: number; bytes: number; queries: number } {
    return { videos: this.index?.size ?? 0, bytes: this.index?.bytes ?? 0, queries: this.normalised.size };
  }

  /**
   * A CatalogueReader that answers from this index while it is loaded and current, and asks `fallback` (the
   * database) for anything else.
   */
  reader(fallback: CatalogueReader, tuning: { relatedPerTaxon?: number } = {}): CatalogueReader {
    return new IndexCatalogueReader({ current: () => this.current(), prefixes: (q) => this.prefixes(q), fallback, ...tuning });
  }

  /** The index once the reads that announcements started are applied (an edit is seen by the very next read), or null. */
  private async current(): Promise<TitleIndex | null> {
    if (!this.ready) return null;
    for (let i = 0; i < 3 && this.applying; i++) await this.applying;
    return this.index && this.bus.live ? this.index : null;
  }

  /** Loads (or reconciles) the whole index now; answers once done. For start-up, the periodic reload and tests. */
  async load(): Promise<void> {
    if (this.loading) {
      this.loading.again = true;
      return;
    }
    const loading = (this.loading = { changed: new Set<number>(), again: false });
    try {
      const started = Date.now();
      let target = this.index;
      do {
        // Asked again while loading (everything announced, say): read it all once more before answering from it.
        loading.again = false;
        const [{ videos }] = await this.db.query<{ videos: number | string }[]>(
          `SELECT COALESCE((SELECT videos FROM catalogue_counts WHERE scope = 'all' AND key = ''), 0) AS videos`,
        );
        this.belowMinimum = Number(videos) < this.config.searchIndexMinVideos;
        if (this.belowMinimum) {
          this.index = null;
          return;
        }
        target ??= new TitleIndex();
        const seen = new Set<number>();
        for (let after = 0; ; ) {
          const rows = await this.db.query<VideoRow[]>(
            `SELECT ${VIDEO_COLUMNS} FROM videos v WHERE ${published('v')} AND id > $1 ORDER BY id LIMIT $2`,
            [after, LOAD_BATCH],
          );
          if (this.closed) return;
          for (const row of rows) {
            const video = toIndexed(row);
            seen.add(video.id);
            if (!loading.changed.has(video.id)) target.upsert(video);
          }
          if (rows.length < LOAD_BATCH) break;
          after = Number(rows[rows.length - 1].id);
        }
        for (const id of target.indexedIds()) if (!seen.has(id) && !loading.changed.has(id)) target.remove(id);
      } while (loading.again && !this.closed);
      target.prepare();
      if (this.index === null) this.logger.log(`Search index loaded: ${target.size} videos in ${Date.now() - started} ms`);
      this.index = target;
      // The videos announced while it loaded are read again now, after the rows the load kept.
      for (const id of loading.changed) this.pending.videos.add(id);
      this.applyPending();
    } catch (error) {
      this.fail(error);
    } finally {
      this.loading = null;
    }
  }

  private reloadEvery(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.closed) return;
      this.reloadEvery(SEARCH_INDEX_RELOAD_MS);
      void this.load();
    }, ms);
    this.timer.unref();
  }

  /** The database did not answer: searches go to it (and fail or succeed as it does) until a load succeeds. */
  private fail(error: unknown): void {
    if (this.closed) return;
    if (this.index) this.logger.warn(`Search index set aside until it can be read again: ${String(error)}`);
    this.index = null;
    this.reloadEvery(RETRY_MS);
  }

  private async prefixes(q: string): Promise<string[] | null> {
    const kept = this.normalised.get(q);
    if (kept) return kept.prefixes;
    const tsQuery = toPrefixTsQuery(q);
    if (!tsQuery) return null;
    try {
      const [{ text }] = await this.db.query<{ text: string }[]>(`SELECT to_tsquery('english', $1)::text AS text`, [tsQuery]);
      const prefixes = prefixesOf(text);
      this.normalised.set(q, { prefixes });
      return prefixes;
    } catch {
      return null; // the database's own search answers (or fails) the usual way
    }
  }

  /** What each change evicts: the videos, counts or scores it names are read again; everything, the whole index. */
  private declareEvictions(bus: InvalidationBus): void {
    bus.declareCache('search index', {
      VideoChanged: (event) => {
        if (!touches(event, ...INDEXED_FIELDS)) return;
        for (const id of event.ids) {
          this.pending.videos.add(id);
          this.loading?.changed.add(id);
        }
        this.applyPending();
      },
      CountsFlushed: ({ deltas }) => {
        for (const [id] of deltas) this.pending.counts.add(id);
        this.applyPending();
      },
      RankingRecomputed: () => {
        this.pending.trending = true;
        this.applyPending();
      },
      CachesCleared: () => {
        // Something may have been missed: set the index aside until it is read again whole.
        this.index = null;
        this.pending.videos.clear();
        this.pending.counts.clear();
        this.pending.trending = false;
        void this.load();
      },
    });
  }

  /** Reads what the announcements name, one batch at a time, in the order they came. */
  private applyPending(): void {
    if (this.applying) return;
    const run = (async () => {
      while (this.index && (this.pending.videos.size || this.pending.counts.size || this.pending.trending)) {
        const index = this.index;
        const videos = [...this.pending.videos];
        const counts = [...this.pending.counts].filter((id) => !this.pending.videos.has(id));
        const trending = this.pending.trending;
        this.pending.videos.clear();
        this.pending.counts.clear();
        this.pending.trending = false;
        try {
          if (videos.length) {
            const rows = await this.db.query<VideoRow[]>(
              `SELECT ${VIDEO_COLUMNS} FROM videos v WHERE ${published('v')} AND id = ANY($1::int[])`,
              [videos],
            );
            const found = new Set<number>();
            for (const row of rows) {
              const video = toIndexed(row);
              found.add(video.id);
              index.upsert(video);
            }
            for (const id of videos) if (!found.has(id)) index.remove(id);
          }
          if (counts.length) {
            const rows = await this.db.query<VideoRow[]>(
              `SELECT id, views, likes, trending_score FROM videos v WHERE ${published('v')} AND id = ANY($1::int[])`,
              [counts],
            );
            for (const row of rows) index.setCounts(Number(row.id), Number(row.views), Number(row.likes), Number(row.trending_score));
          }
          if (trending) {
            const rows = await this.db.query<VideoRow[]>(`SELECT id, trending_score FROM videos v WHERE ${published('v')}`);
            for (const row of rows) index.setTrending(Number(row.id), Number(row.trending_score));
          }
          index.prepare(); // the orders the reads changed, now rather than in the next search
        } catch (error) {
          this.fail(error);
        }
      }
      this.pending.videos.clear();
      this.pending.counts.clear();
      this.pending.trending = false;
    })().finally(() => {
      this.applying = null;
      // Announced between the loop's last check and here.
      if (this.index && (this.pending.videos.size || this.pending.counts.size || this.pending.trending)) this.applyPending();
    });
    this.applying = run;
  }
}
