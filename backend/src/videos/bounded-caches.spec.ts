import { STALE_READS_MAX_BYTES, StaleReadsStore } from '../common/http/stale-reads';
import type { InvalidationBus } from '../common/cache/invalidation-bus';
import type { AppConfig } from '../config/app-config';
import { CACHE_MAX_AGE_MS, CatalogueCache, DERIVED_CACHE_MAX, ROW_CACHE_MAX, sweepExpired } from './catalogue-cache';
import type { CountersService } from './counters/counters.service';
import { HOT_ANSWERS_MAX_BYTES, HotAnswers } from './hot-answers';
import type { VideoCardRow } from './video.mapper';

/**
 * Every in-process cache of the read path has a bound and evicts past it: many distinct queries (a crawler, or
 * someone sending a new `q` every time) leave each one under its bound, however many there were.
 */
const bus = { live: true, declareCache: () => undefined } as unknown as InvalidationBus;

function catalogueCache(): CatalogueCache {
  return new CatalogueCache(bus, { catalogueCache: true } as AppConfig);
}

describe('bounded caches', () => {
  it('the catalogue cache keeps at most DERIVED_CACHE_MAX derived answers and ROW_CACHE_MAX rows', async () => {
    const cache = catalogueCache();
    const distinct = DERIVED_CACHE_MAX + 5000;
    for (let i = 0; i < distinct; i++) {
      await cache.derive(`search:q=word${i}`, 'catalogue', async () => ({ total: i }));
      if (i % 1000 === 0) expect(cache.sizes.derived).toBeLessThanOrEqual(DERIVED_CACHE_MAX);
    }
    expect(cache.sizes.derived).toBe(DERIVED_CACHE_MAX);
    // The newest are kept, the oldest were evicted.
    let loads = 0;
    await cache.derive(`search:q=word${distinct - 1}`, 'catalogue', async () => ++loads);
    await cache.derive('search:q=word0', 'catalogue', async () => ++loads);
    expect(loads).toBe(1);

    const ids = Array.from({ length: ROW_CACHE_MAX + 5000 }, (_, i) => i + 1);
    for (let from = 0; from < ids.length; from += 1000) {
      await cache.rowsOf(ids.slice(from, from + 1000), async (missing) => missing.map((id) => ({ id }) as unknown as VideoCardRow));
    }
    expect(cache.sizes.rows).toBe(ROW_CACHE_MAX);
    cache.onModuleDestroy();
  });

  it('the hot answers keep at most HOT_ANSWERS_MAX_BYTES, counted with what each entry costs besides its body', () => {
    const cache = catalogueCache();
    const answers = new HotAnswers(cache, {} as CountersService, { brandHosts: {} } as unknown as AppConfig);
    const page = { data: Array.from({ length: 60 }, (_, i) => ({ id: i + 1, views: 10, likes: 1, title: 'x'.repeat(500) })) };
    const stamp = cache.stamp();
    expect(stamp).not.toBeNull();
    const pages = 2000; // about 64 MB of bodies
    for (let i = 0; i < pages; i++) {
      answers.keep(`/api/videos?q=word${i}`, stamp!, page, () => `"etag-${i}"`);
      expect(answers.sizes.bytes).toBeLessThanOrEqual(HOT_ANSWERS_MAX_BYTES);
    }
    expect(answers.sizes.answers).toBeLessThan(pages);
    expect(answers.sizes.bytes).toBeGreaterThan(HOT_ANSWERS_MAX_BYTES * 0.9);
    expect(answers.candidate(`/api/videos?q=word${pages - 1}`)).toBeDefined();
    expect(answers.candidate('/api/videos?q=word0')).toBeUndefined();
    answers.onModuleDestroy();
    cache.onModuleDestroy();
  });

  it('the last good answers for outages keep at most STALE_READS_MAX_BYTES, kept as text', () => {
    const store = new StaleReadsStore(bus);
    const page = { data: Array.from({ length: 60 }, (_, i) => ({ id: i + 1, title: 'é'.repeat(250) })) };
    for (let i = 0; i < 2000; i++) {
      store.remember(`/api/videos?q=word${i}`, page);
      expect(store.sizes.bytes).toBeLessThanOrEqual(STALE_READS_MAX_BYTES);
    }
    expect(store.sizes.answers).toBeLessThan(2000);
    expect(store.recall('/api/videos?q=word1999')?.body).toEqual(page);
    expect(store.recall('/api/videos?q=word0')).toBeUndefined();
  });

  it('expired entries are swept once a CACHE_MAX_AGE_MS, not left to fill the cache up to its bound', () => {
    vi.useFakeTimers();
    try {
      const purged: number[] = [];
      const stop = sweepExpired({ purgeStale: () => purged.push(Date.now()) > 0 }, { purgeStale: () => purged.push(-1) > 0 });
      vi.advanceTimersByTime(CACHE_MAX_AGE_MS - 1);
      expect(purged).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(purged).toHaveLength(2);
      vi.advanceTimersByTime(CACHE_MAX_AGE_MS);
      expect(purged).toHaveLength(4);
      stop();
      vi.advanceTimersByTime(10 * CACHE_MAX_AGE_MS);
      expect(purged).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });
});
