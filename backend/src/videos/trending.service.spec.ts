import type { JobRunner } from '../jobs/job-runner.service';
import type { ScheduledTask } from '../jobs/job-types';
import { DAILY_STATS_KEEP_DAYS, DAILY_STATS_PRUNE_TASK, TRENDING_REFRESH_MS, TRENDING_TASK, TrendingService } from './trending.service';
import type { VideosRepository } from './videos.repository';

describe('TrendingService', () => {
  function setup() {
    const tasks: ScheduledTask[] = [];
    let release!: (changed: number) => void;
    const recomputes: number[] = [];
    const pruned: (number | 'batches')[] = [];
    const videos = {
      pruneDailyStats: async (keepDays: number) => {
        pruned.push(keepDays);
        return 4;
      },
      pruneAppliedBatches: async () => {
        pruned.push('batches');
      },
      recomputeTrending: () =>
        new Promise<number>((resolve) => {
          recomputes.push(Date.now());
          release = resolve;
        }),
    };
    const runner = { schedule: (task: ScheduledTask) => tasks.push(task) };
    const trending = new TrendingService(videos as unknown as VideosRepository, runner as unknown as JobRunner);
    return { trending, tasks, recomputes, pruned, release: (n: number) => release(n) };
  }

  it('registers the whole-catalogue recompute as a task that runs once per deployment every 10 minutes', async () => {
    const { trending, tasks, release } = setup();
    trending.onModuleInit();
    expect(tasks[0]).toMatchObject({ name: TRENDING_TASK, everyMs: TRENDING_REFRESH_MS });
    const summary = tasks[0].run();
    release(3);
    expect(await summary).toBe('3 score(s) changed');
  });

  it('registers the pruning of old per-video days as a task every 6 hours', async () => {
    const { trending, tasks, pruned } = setup();
    trending.onModuleInit();
    expect(tasks.map((t) => [t.name, t.everyMs])).toEqual([
      [TRENDING_TASK, TRENDING_REFRESH_MS],
      [DAILY_STATS_PRUNE_TASK, 6 * 60 * 60_000],
    ]);
    expect(await tasks[1].run()).toBe(`4 day row(s) older than ${DAILY_STATS_KEEP_DAYS} days removed`);
    expect(pruned).toEqual(['batches', DAILY_STATS_KEEP_DAYS]);
  });

  it('shares one recompute between concurrent callers, and starts a new one after it ends', async () => {
    const { trending, recomputes, release } = setup();
    const a = trending.recompute();
    const b = trending.recompute();
    expect(recomputes).toHaveLength(1);
    release(5);
    expect(await a).toBe(5);
    expect(await b).toBe(5);
    const c = trending.recompute();
    expect(recomputes).toHaveLength(2);
    release(0);
    expect(await c).toBe(0);
  });
});
