import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { Metrics } from '../common/metrics/metrics';
import { REDIS_CONNECTION } from '../common/redis/redis.module';
import { SearchIndex } from '../videos/catalogue/search-index';

/** A database pool's counts, as node-postgres keeps them (PGlite's pool is one connection and keeps none). */
interface PoolCounts {
  totalCount?: number;
  idleCount?: number;
  waitingCount?: number;
}

/**
 * The process's state that the health routes also tell, as gauges for `/metrics`: the search index's state, the
 * database pool's use, whether Redis answers (or the process runs on its own fallbacks) and whether changes
 * reach it.
 */
@Injectable()
export class SiteMetrics {
  constructor(
    metrics: Metrics,
    @InjectDataSource() db: DataSource,
    @Inject(REDIS_CONNECTION) redis: Redis | null,
    search: SearchIndex,
    bus: InvalidationBus,
  ) {
    metrics.gauge('search_index_state', 'The in-memory title index: 1 for its state now (ready, loading or off)', () =>
      (['ready', 'loading', 'off'] as const).map((state) => ({ labels: { state }, value: search.state === state ? 1 : 0 })), ['state']);
    metrics.gauge('db_pool_connections', "The database pool's connections: total, idle, and requests waiting for one (PGlite: one connection)", () => {
      const pool = (db.driver as unknown as { master?: PoolCounts }).master;
      if (typeof pool?.totalCount !== 'number') return [{ labels: { state: 'total' }, value: 1 }];
      return [
        { labels: { state: 'total' }, value: pool.totalCount },
        { labels: { state: 'idle' }, value: pool.idleCount ?? 0 },
        { labels: { state: 'waiting' }, value: pool.waitingCount ?? 0 },
      ];
    }, ['state']);
    metrics.gauge('redis_fallback', 'Whether this process runs on its own fallbacks because Redis does not answer (1) or not (0); absent without REDIS_URL', () =>
      redis ? (redis.status === 'ready' ? 0 : 1) : []);
    metrics.gauge('invalidation_bus_live', "Whether every process's catalogue changes reach this one (1), or its caches pass reads through (0)", () => (bus.live ? 1 : 0));
  }
}
