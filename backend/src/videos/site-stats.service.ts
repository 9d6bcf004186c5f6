import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { iso } from '../common/utils/iso';
import { lastDays } from '../common/utils/last-days';
import { JobRunner } from '../jobs/job-runner.service';
import { published } from './videos.repository';

/** How often the dashboard's rankings are computed again (docs/decisions.md › "Dashboard"). */
export const SITE_RANKINGS_REFRESH_MS = 5 * 60_000;
export const SITE_RANKINGS_TASK = 'site-rankings';
/** Entries kept in each ranking. */
export const SITE_RANKINGS_SIZE = 10;

export const RANKING_PERIODS = ['day', 'week'] as const;
export type RankingPeriod = (typeof RANKING_PERIODS)[number];
/** Days each period covers, today included. */
const PERIOD_DAYS: Record<RankingPeriod, number> = { day: 1, week: 7 };

export interface RankedVideo {
  id: number;
  views: number;
}
export interface RankedTaxon {
  id: string;
  views: number;
  /** Its videos that were watched in the period. */
  videos: number;
}
export interface SiteRanking {
  period: RankingPeriod;
  computed_at: string;
  videos: RankedVideo[];
  categories: RankedTaxon[];
  performers: RankedTaxon[];
}

export interface SiteDay {
  day: string;
  views: number;
  likes: number;
}

/**
 * The site's figures for the admins' dashboard (docs/decisions.md › "Dashboard"). Views and likes per day are the rows the
 * counter flush adds up in `site_daily_stats`. The rankings: the most watched published videos, categories and
 * performers of today and of the last 7 days, by counted views. Summing a week of per-video days is hundreds of thousands of rows at 100,000
 * videos, so a scheduled task (once per deployment, every 5 minutes, and on an admin's refresh) writes the
 * result into `site_rankings`, and reading it is one small read.
 */
@Injectable()
export class SiteStatsService implements OnModuleInit {
  private running?: Promise<void>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly runner: JobRunner,
  ) {}

  onModuleInit(): void {
    this.runner.schedule({
      name: SITE_RANKINGS_TASK,
      everyMs: SITE_RANKINGS_REFRESH_MS,
      run: async () => {
        await this.recompute();
        return 'rankings of today and the last 7 days computed';
      },
    });
  }

  /** Computes both periods now; concurrent calls share one run. */
  recompute(): Promise<void> {
    this.running ??= Promise.all(RANKING_PERIODS.map((period) => this.compute(period)))
      .then(() => undefined)
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Every day of the last `days` (today included, the database's calendar), oldest first; zeros where none. */
  async daily(days: number): Promise<SiteDay[]> {
    const rows = await this.db.query<SiteDay[]>(
      `SELECT to_char(x.d, 'YYYY-MM-DD') AS day, COALESCE(s.views, 0) AS views, COALESCE(s.likes, 0) AS likes
       FROM ${lastDays('$1')} LEFT JOIN site_daily_stats s ON s.day = x.d
       ORDER BY x.d`,
      [days],
    );
    return rows.map((row) => ({ day: row.day, views: Number(row.views), likes: Number(row.likes) }));
  }

  /** The stored rankings; computed first when there are none yet (a new deployment). */
  async read(): Promise<SiteRanking[]> {
    const rows = await this.stored();
    if (rows.length === RANKING_PERIODS.length) return rows;
    await this.recompute();
    return this.stored();
  }

  private async stored(): Promise<SiteRanking[]> {
    const rows = await this.db.query<(Omit<SiteRanking, 'computed_at'> & { computed_at: Date | string })[]>(
      'SELECT period, computed_at, videos, categories, performers FROM site_rankings ORDER BY array_position($1::varchar[], period)',
      [RANKING_PERIODS],
    );
    return rows.map((row) => ({ ...row, computed_at: iso(row.computed_at) }));
  }

  private async compute(period: RankingPeriod): Promise<void> {
    const since = PERIOD_DAYS[period] - 1;
    const taxa = (table: string, key: string) =>
      `SELECT COALESCE(jsonb_agg(jsonb_build_object('id', t.id, 'views', t.views, 'videos', t.videos) ORDER BY t.views DESC, t.id), '[]'::jsonb)
       FROM (SELECT j.${key} AS id, sum(w.views)::int AS views, count(*)::int AS videos
             FROM watched w JOIN ${table} j ON j.video_id = w.video_id AND j.ready
             GROUP BY j.${key} ORDER BY views DESC, id LIMIT $2) t`;
    await this.db.query(
      `WITH watched AS (
         SELECT video_id, sum(counted_views)::int AS views FROM video_daily_stats
         WHERE day >= CURRENT_DATE - $1::int AND counted_views > 0 GROUP BY video_id
       )
       INSERT INTO site_rankings (period, computed_at, videos, categories, performers)
       SELECT $3, now(),
         (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', t.id, 'views', t.views) ORDER BY t.views DESC, t.id), '[]'::jsonb)
          FROM (SELECT w.video_id AS id, w.views FROM watched w JOIN videos v ON v.id = w.video_id AND ${published('v')}
                ORDER BY w.views DESC, w.video_id LIMIT $2) t),
         (${taxa('video_categories', 'category_id')}),
         (${taxa('video_performers', 'performer_id')})
       ON CONFLICT (period) DO UPDATE SET computed_at = EXCLUDED.computed_at, videos = EXCLUDED.videos,
         categories = EXCLUDED.categories, performers = EXCLUDED.performers`,
      [since, SITE_RANKINGS_SIZE, period],
    );
  }
}
