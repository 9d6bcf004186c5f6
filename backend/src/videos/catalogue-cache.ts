import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { VideoCardRow } from './video.mapper';

/** Published videos' rows kept, about 1 kB each: some 20 MB at most. */
export const ROW_CACHE_MAX = 20_000;
/** Derived answers kept (listing pages' ids, totals, related rankings, taxonomy lists): some 10 MB at most. */
export const DERIVED_CACHE_MAX = 20_000;
/**
 * The longest anything is kept, whatever the messages say: a bound on what a lost message (Redis gone between
 * a write and its announcement) can cost.
 */
export const CACHE_MAX_AGE_MS = 60_000;

/**
 * Drops what has outlived CACHE_MAX_AGE_MS from `caches` every so often. lru-cache forgets an expired entry only
 * when it is read or pushed out, so a cache of distinct keys (listing pages, related rankings) filled up to its
 * bound with answers nobody could be given again; swept, it holds about a minute of distinct reads (the soak's
 * heap snapshots: 9 MB of expired hot answers and 4 MB of derived answers after five minutes, before this).
 * The timer does not keep the process alive; the returned function stops it.
 */
export function sweepExpired(...caches: { purgeStale(): boolean }[]): () => void {
  const timer = setInterval(() => caches.forEach((cache) => cache.purgeStale()), CACHE_MAX_AGE_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * What a derived answer depends on: `catalogue` answers (totals, newest and longest pages, related rankings,
 * taxonomy lists) change when a video is published, edited or deleted or a taxon renamed; `counts` answers
 * (pages ordered by views, likes or trending) change as well at every counter flush and trending recompute.
 */
export type Scope = 'catalogue' | 'counts';

/** The cache's versions at one moment: what an answer built then depends on. */
export interface CatalogueStamp {
  catalogue: number;
  counts: number;
}

interface Derived {
  value: unknown;
  catalogue: number;
  counts: number;
}

/**
 * The catalogue's hot reads in memory, kept by the owner of the videos tables and dropped by its writes:
 *
 * - rows: each published video's card columns with its *stored* counts (a missing or unpublished video is
 *   kept as null); a flush adds what it wrote, so that stored + the counters' buffer stays exact;
 * - derived answers by key (listing page ids, totals, related rankings, a video's categories and performers,
 *   taxonomy lists), valid while the versions of what they depend on have not moved.
 *
 * Every write is announced on the InvalidationBus (a ChangeEvent, published by the owner of what changed); the
 * cache declares what each event evicts: this process applies it at once, the others when the Redis message
 * arrives (well under a second). While the bus is not live (Redis subscription down) or
 * CATALOGUE_CACHE=off, every read passes through to the database. A read that was in flight while something
 * changed is answered but not kept, so that a load racing a write never keeps what the write replaced.
 */
@Injectable()
export class CatalogueCache implements OnModuleDestroy {
  private readonly rows = new LRUCache<number, { row: VideoCardRow | null }>({ max: ROW_CACHE_MAX, ttl: CACHE_MAX_AGE_MS });
  private readonly derived = new LRUCache<string, Derived>({ max: DERIVED_CACHE_MAX, ttl: CACHE_MAX_AGE_MS });
  /** Loads of derived answers under way, so that a crowd asking the same thing makes one query. */
  private readonly loading = new Map<string, Promise<unknown>>();
  private catalogueVersion = 0;
  private countsVersion = 0;
  private readonly enabled: boolean;
  private readonly stopSweeping = sweepExpired(this.rows, this.derived);

  constructor(
    private readonly bus: InvalidationBus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.enabled = config.catalogueCache;
    bus.declareCache('catalogue: rows and derived answers', {
      VideoChanged: ({ ids }) => {
        for (const id of ids) this.rows.delete(id);
        this.catalogueVersion++;
      },
      CountsFlushed: ({ deltas }) => {
        for (const [id, views, likes] of deltas) {
          if (views === 0 && likes === 0) continue; // only its trending score was rewritten: the row is as it was
          const kept = this.rows.get(id);
          // A new object: a row handed out before stays as it was read.
          // Likes taken back never take the count below zero (the flush's GREATEST).
          if (kept?.row) this.rows.set(id, { row: { ...kept.row, views: Number(kept.row.views) + views, likes: Math.max(0, Number(kept.row.likes) + likes) } });
        }
        this.countsVersion++;
      },
      RankingRecomputed: () => void this.countsVersion++,
      TaxaChanged: () => void this.catalogueVersion++,
      CachesCleared: () => {
        this.rows.clear();
        this.derived.clear();
        this.catalogueVersion++;
        this.countsVersion++;
      },
    });
  }

  onModuleDestroy(): void {
    this.stopSweeping();
  }

  /** How many rows and derived answers are kept (expired ones included until the next sweep). */
  get sizes(): { rows: number; derived: number } {
    return { rows: this.rows.size, derived: this.derived.size };
  }

  private get usable(): boolean {
    return this.enabled && this.bus.live;
  }

  /**
   * The published rows among `ids`, from memory where kept; `load` reads the others (published only) and
   * they are kept. Unpublished and missing ids are absent from the answer.
   */
  async rowsOf(ids: number[], load: (ids: number[]) => Promise<VideoCardRow[]>): Promise<Map<number, VideoCardRow>> {
    const found = new Map<number, VideoCardRow>();
    const usable = this.usable;
    const missing: number[] = [];
    for (const id of ids) {
      const kept = usable ? this.rows.get(id) : undefined;
      if (kept === undefined) missing.push(id);
      else if (kept.row) found.set(id, kept.row);
    }
    if (missing.length === 0) return found;
    const versions = this.versions();
    const loaded = await load(missing);
    const keep = usable && this.unchangedSince(versions);
    for (const row of loaded) found.set(Number(row.id), row);
    if (keep) for (const id of missing) this.rows.set(id, { row: found.get(id) ?? null });
    return found;
  }

  /** The answer kept under `key` while what it depends on is unchanged; otherwise `load`'s, kept. */
  async derive<T>(key: string, scope: Scope, load: () => Promise<T>): Promise<T> {
    if (!this.usable) return load();
    const kept = this.derived.get(key);
    if (kept && kept.catalogue === this.catalogueVersion && (scope === 'catalogue' || kept.counts === this.countsVersion)) {
      return kept.value as T;
    }
    const under = this.loading.get(key);
    if (under) return under as Promise<T>;
    const versions = this.versions();
    const run = load().then((value) => {
      if (this.usable && this.unchangedSince(versions, scope)) this.derived.set(key, { value, ...versions });
      return value;
    });
    this.loading.set(key, run);
    try {
      return await run;
    } finally {
      this.loading.delete(key);
    }
  }

  /**
   * The versions a read starts from, for an answer built from this cache to be kept beside it (the hot answers);
   * null while nothing may be kept (the bus is not live, or CATALOGUE_CACHE=off).
   */
  stamp(): CatalogueStamp | null {
    return this.usable ? this.versions() : null;
  }

  /** Nothing has changed since `stamp` was taken, and the cache is still usable. */
  isCurrent(stamp: CatalogueStamp): boolean {
    return this.usable && this.unchangedSince(stamp);
  }

  /**
   * The stored counts of a published video whose row is kept, while the cache is usable, without touching its
   * recency; else undefined.
   */
  keptCounts(id: number): { views: number; likes: number } | undefined {
    const row = this.usable ? this.rows.peek(id)?.row : undefined;
    return row ? { views: Number(row.views), likes: Number(row.likes) } : undefined;
  }

  private versions(): CatalogueStamp {
    return { catalogue: this.catalogueVersion, counts: this.countsVersion };
  }

  /** Nothing a load started at `versions` could have missed has changed (rows depend on both). */
  private unchangedSince(versions: CatalogueStamp, scope: Scope = 'counts'): boolean {
    return versions.catalogue === this.catalogueVersion && (scope === 'catalogue' || versions.counts === this.countsVersion);
  }
}
