import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRunner } from '../jobs/job-runner.service';
import { VideosRepository } from './videos.repository';

/** How often scores are recomputed even when no counts were written: they decay as days pass. */
export const TRENDING_REFRESH_MS = 10 * 60_000;
export const TRENDING_TASK = 'trending-recompute';

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
  }

  /** Recomputes every score now; concurrent calls share one run. Returns how many videos changed. */
  recompute(): Promise<number> {
    this.running ??= this.videos.recomputeTrending().finally(() => (this.running = undefined));
    return this.running;
  }
}
