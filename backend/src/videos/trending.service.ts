import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RECOMPUTE_TRENDING_SQL } from './trending';

/** How often scores are recomputed even when no counts were written: they decay as days pass. */
export const TRENDING_REFRESH_MS = 10 * 60_000;

/** Keeps `videos.trending_score` in step with the per-day stats. */
@Injectable()
export class TrendingService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TrendingService.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.recompute();
    this.timer = setInterval(() => {
      this.recompute().catch((error: unknown) => this.logger.warn(`Trending recompute failed: ${String(error)}`));
    }, TRENDING_REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Recomputes every score now; concurrent calls share one run. Returns how many videos changed. */
  recompute(): Promise<number> {
    this.running ??= this.db
      .query<[unknown[], number]>(RECOMPUTE_TRENDING_SQL)
      .then((result) => (Array.isArray(result) ? Number(result[1] ?? 0) : 0))
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
