import type { DataSource } from 'typeorm';
import type { ListVideosQuery, VideoSort } from './dto/list-videos.query';
import { toPrefixTsQuery } from './search-query';
import { published } from './videos.repository';

export const RELATED_LIMIT = 24;
export const HOT_FALLBACK_LIMIT = 6;

/** What a listing is filtered by: everything of its query but the sort and the page. */
export type ListFilter = Pick<ListVideosQuery, 'category' | 'performer' | 'featured' | 'q'>;

const ORDER_BY: Record<VideoSort, string> = {
  newest: 'v.upload_date DESC, v.id DESC',
  'most-viewed': 'v.views DESC, v.id DESC',
  'top-rated': 'v.likes DESC, v.views DESC, v.id DESC',
  longest: 'v.duration DESC NULLS LAST, v.id DESC',
  trending: 'v.trending_score DESC, v.id DESC',
};

/** Builds positional parameters for raw SQL: `p.add(value)` returns `$n`. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function whereOf(filter: ListFilter, p: Params): string {
  const where = [published('v')];
  if (filter.category !== undefined) {
    where.push(`EXISTS (SELECT 1 FROM video_categories vc WHERE vc.video_id = v.id AND vc.category_id = ${p.add(filter.category)})`);
  }
  if (filter.performer !== undefined) {
    where.push(`EXISTS (SELECT 1 FROM video_performers vp WHERE vp.video_id = v.id AND vp.performer_id = ${p.add(filter.performer)})`);
  }
  if (filter.featured !== undefined) where.push(filter.featured ? 'v.featured > 0' : 'v.featured = 0');
  const tsQuery = filter.q !== undefined ? toPrefixTsQuery(filter.q) : null;
  if (tsQuery) where.push(`v.search_vector @@ to_tsquery('english', ${p.add(tsQuery)})`);
  return where.join(' AND ');
}

/**
 * The catalogue's reads that go to the database: which ids a listing page holds, how many videos a filter
 * matches, and a video's related ranking. Ids only: the cards come from the videos' row cache (a deferred
 * join done by the caller). Read only; the tables are VideosRepository's.
 */
export class CatalogueQueries {
  constructor(private readonly db: DataSource) {}

  /** How many published videos match the filter. */
  async total(filter: ListFilter): Promise<number> {
    const p = new Params();
    const [{ total }] = await this.db.query<{ total: number }[]>(`SELECT count(*)::int AS total FROM videos v WHERE ${whereOf(filter, p)}`, p.values);
    return Number(total);
  }

  /** The ids of one page of the listing, in order; `total` is what `total(filter)` answered (it may lag a little). */
  async pageIds(query: ListVideosQuery, _total: number): Promise<number[]> {
    const p = new Params();
    const where = whereOf(query, p);
    const rows = await this.db.query<{ id: number }[]>(
      `SELECT v.id FROM videos v WHERE ${where} ORDER BY ${ORDER_BY[query.sort]}
       LIMIT ${p.add(query.limit)} OFFSET ${p.add((query.page - 1) * query.limit)}`,
      p.values,
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * Videos sharing a performer or category, ranked by shared performers, then shared categories, then views;
   * when none share anything, up to 6 hot videos by the trending ranking. Never the video itself.
   */
  async related(id: number): Promise<{ related: boolean; ids: number[] }> {
    const related = await this.db.query<{ id: number }[]>(
      `WITH shared AS (
         SELECT vp.video_id, 1 AS performers, 0 AS categories
         FROM video_performers vp
         WHERE vp.performer_id IN (SELECT performer_id FROM video_performers WHERE video_id = $1)
         UNION ALL
         SELECT vc.video_id, 0, 1
         FROM video_categories vc
         WHERE vc.category_id IN (SELECT category_id FROM video_categories WHERE video_id = $1)
       ), ranked AS (
         SELECT video_id, SUM(performers) AS performers, SUM(categories) AS categories
         FROM shared WHERE video_id <> $1 GROUP BY video_id
       )
       SELECT v.id FROM ranked r JOIN videos v ON v.id = r.video_id
       WHERE ${published('v')}
       ORDER BY r.performers DESC, r.categories DESC, v.views DESC, v.id DESC
       LIMIT ${RELATED_LIMIT}`,
      [id],
    );
    if (related.length > 0) return { related: true, ids: related.map((r) => Number(r.id)) };

    const hot = await this.db.query<{ id: number }[]>(
      `SELECT v.id FROM videos v
       WHERE ${published('v')} AND v.id <> $1
       ORDER BY ${ORDER_BY.trending} LIMIT ${HOT_FALLBACK_LIMIT}`,
      [id],
    );
    return { related: false, ids: hot.map((r) => Number(r.id)) };
  }
}
