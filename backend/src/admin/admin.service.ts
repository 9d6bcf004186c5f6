import { Injectable } from '@nestjs/common';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { CountersService } from '../videos/counters/counters.service';
import { SiteStatsService } from '../videos/site-stats.service';
import { TrendingService } from '../videos/trending.service';

/** Admin operations; composes the other modules' services and owns no tables. */
@Injectable()
export class AdminService {
  constructor(
    private readonly counters: CountersService,
    private readonly trending: TrendingService,
    private readonly rankings: SiteStatsService,
    private readonly bus: InvalidationBus,
  ) {}

  /** Writes every buffered view and like now and recomputes every trending score and the dashboard's rankings. */
  async refreshViews(): Promise<{ error: null; flushed: number }> {
    const flushed = await this.counters.flush();
    await Promise.all([this.trending.recompute(), this.rankings.recompute()]);
    return { error: null, flushed };
  }

  /** Empties every response and query cache, in every API process (each cache declares what CachesCleared drops). */
  async clearCache(): Promise<{ error: null }> {
    this.bus.publish({ type: 'CachesCleared', reason: 'asked' });
    return { error: null };
  }
}
