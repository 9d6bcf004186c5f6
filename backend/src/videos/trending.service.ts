import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRunner } from '../jobs/job-runner.service';
import { VideosRepository } from './videos.repository';

/** How often scores are recomputed even when no counts were written: they decay as days pass. */
export const TRENDING_REFRESH_MS = 10 * 60_000;
export const TRENDING_TASK = 'trending-recompute';
/** Per-video days older than this go (the charts show 90 days at most; a year is kept for comparisons). */
export const DAILY_STATS_KEEP_DAYS = 400;
export const DAILY_STATS_PRUNE_TASK = 'daily-stats-prune';
const DAILY_STATS_PRUNE_MS = 6 * 60 * 60_000;

/**
 * Keeps `videos.trending_score` in step with the per-day stats. Every counter flush recomputes the videos it
 * touched; the whole catalogue is recomputed every 10 minutes by a scheduled task, once per deployment (in the
 * process that runs jobs: the worker in the container stack), and on an admin's refresh.
 */
@Injectable()
export class TrendingService implements OnModuleInit {
  private running?: Promise<number>;

  constructor(
    private readonly videos: VideosRepository,
    private readonly runner: JobRunner,
  ) {}

  onModuleInit(): void {
    this.runner.schedule({
      name: TRENDING_TASK,
      everyMs: TRENDING_REFRESH_MS,
      run: async () => `${await this.recompute()} score(s) changed`,
    });
    // The per-video days stay bounded: a row per video per day with views would grow without end; so do the ids
    // of the counters' batches already added, one per flush.
    this.runner.schedule({
      name: DAILY_STATS_PRUNE_TASK,
      everyMs: DAILY_STATS_PRUNE_MS,
      run: async () => {
        await this.videos.pruneAppliedBatches();
        return `${await this.videos.pruneDailyStats(DAILY_STATS_KEEP_DAYS)} day row(s) older than ${DAILY_STATS_KEEP_DAYS} days removed`;
      },
    });
  }

  /** Recomputes every score now; concurrent calls share one run. Returns how many videos changed. */
  recompute(): Promise<number> {
    this.running ??= this.videos.recomputeTrending().finally(() => (this.running = undefined));
    return this.running;
  }
}
