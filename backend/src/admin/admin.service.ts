import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { StaleReadsStore } from '../common/http/stale-reads';
import { CountersService } from '../videos/counters/counters.service';
import { TrendingService } from '../videos/trending.service';

/** Admin operations; composes the other modules' services and owns no tables. */
@Injectable()
export class AdminService {
  constructor(
    private readonly counters: CountersService,
    private readonly trending: TrendingService,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly staleReads: StaleReadsStore,
  ) {}

  /** Writes every buffered view and like now and recomputes every trending score. */
  async refreshViews(): Promise<{ error: null; flushed: number }> {
    const flushed = await this.counters.flush();
    await this.trending.recompute();
    await this.cache.clear();
    return { error: null, flushed };
  }

  /** Empties every response and query cache. */
  async clearCache(): Promise<{ error: null }> {
    this.staleReads.clear();
    await this.cache.clear();
    return { error: null };
  }
}
