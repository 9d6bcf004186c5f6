import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CountersService } from './counters/counters.service';
import type { StatsPeriod, VideoStatsDto } from './dto/video-stats.dto';
import { TaxaRepository } from '../taxa/taxa.repository';
import { published, VIDEO_NOT_FOUND } from './videos.repository';
import { NotFoundError } from '../common/errors/domain-errors';

/**
 * One video's statistics for admins (issue #15, docs/decisions.md › "Statistics"): views and likes per day from
 * `video_daily_stats` (one primary-key range per video), lifetime counts, and where it ranks, each rank one
 * count over a partial index of the published videos.
 */
@Injectable()
export class VideoStatsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly counters: CountersService,
    private readonly taxa: TaxaRepository,
  ) {}

  async stats(id: number, days: StatsPeriod): Promise<VideoStatsDto> {
    const [video] = await this.db.query<{ id: number; title: string; status: string; views: number; likes: number; trending_score: number | null }[]>(
      'SELECT id, title, status, views, likes, trending_score FROM videos WHERE id = $1',
      [id],
    );
    if (!video) throw new NotFoundError(VIDEO_NOT_FOUND);
    const isPublished = video.status === 'ready';
    const score = Number(video.trending_score ?? 0);
    const [daily, [counts], categories, pending] = await Promise.all([
      this.db.query<{ day: string; views: number; likes: number }[]>(
        `SELECT to_char(d, 'YYYY-MM-DD') AS day, COALESCE(s.counted_views, 0) AS views, COALESCE(s.likes, 0) AS likes
         FROM generate_series(CURRENT_DATE - ($2::int - 1), CURRENT_DATE, interval '1 day') AS d
         LEFT JOIN video_daily_stats s ON s.video_id = $1 AND s.day = d::date
         ORDER BY d`,
        [id, days],
      ),
      this.db.query<{ above: number; total: number }[]>(
        `SELECT (SELECT count(*) FROM videos v WHERE ${published('v')} AND v.trending_score > $1)::int AS above,
                (SELECT videos FROM catalogue_counts WHERE scope = 'all' AND key = '')::int AS total`,
        [score],
      ),
      this.db.query<{ id: string; above: number; total: number }[]>(
        `SELECT vc.category_id AS id,
                (SELECT count(*) FROM video_categories o WHERE o.category_id = vc.category_id AND o.ready AND o.views > $2)::int AS above,
                COALESCE((SELECT videos FROM catalogue_counts WHERE scope = 'category' AND key = vc.category_id), 0)::int AS total
         FROM video_categories vc WHERE vc.video_id = $1`,
        [id, Number(video.views)],
      ),
      this.counters.pending([id]),
    ]);
    const buffered = pending.get(id) ?? { views: 0, likes: 0 };
    // Names as they are now, in the taxonomy's order (by name).
    const ranks = new Map(categories.map((c) => [c.id, c]));
    const named = await this.taxa.refs('categories', [...ranks.keys()]);
    return {
      id: Number(video.id),
      title: video.title,
      status: video.status,
      days,
      lifetime: { views: Number(video.views) + buffered.views, likes: Math.max(0, Number(video.likes) + buffered.likes) },
      trending: { score, rank: isPublished ? Number(counts.above) + 1 : null, of: Number(counts.total ?? 0) },
      categories: named.map(({ id: category, name }) => {
        const c = ranks.get(category) as { above: number; total: number };
        return { id: category, name, rank: isPublished ? Number(c.above) + 1 : null, of: Number(c.total) };
      }),
      daily: daily.map((d) => ({ day: d.day, views: Number(d.views), likes: Number(d.likes) })),
    };
  }
}
