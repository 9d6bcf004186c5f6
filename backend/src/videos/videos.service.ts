import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { TaxonRefDto, VideoCardDto, VideoCardPageDto, VideoDto, RelatedVideosDto } from './dto/video.dto';
import type { ListVideosQuery, VideoSort } from './dto/list-videos.query';
import { toPrefixTsQuery } from './search-query';
import type { PendingCounts } from './counters/counter-store';
import { CountersService } from './counters/counters.service';
import { cardColumns, toVideo, toVideoCard, VideoCardRow } from './video.mapper';
import { TaxaRepository } from '../taxonomy/taxa.repository';
import { published, VIDEO_NOT_FOUND, VideosRepository } from './videos.repository';

export { VIDEO_NOT_FOUND };
export const RELATED_LIMIT = 24;
export const HOT_FALLBACK_LIMIT = 6;
/** How long a listing's `total` may lag behind the catalogue: counting a whole catalogue per page is the cost. */
export const TOTAL_TTL_MS = 30_000;
/** How long a video's related ranking is reused; the cards themselves (counts) are always read fresh. */
export const RELATED_TTL_MS = 5 * 60_000;

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

@Injectable()
export class VideosService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly counters: CountersService,
    private readonly repository: VideosRepository,
    private readonly taxa: TaxaRepository,
  ) {}

  async list(query: ListVideosQuery): Promise<VideoCardPageDto> {
    const p = new Params();
    const where = [published('v')];
    if (query.category !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM video_categories vc WHERE vc.video_id = v.id AND vc.category_id = ${p.add(query.category)})`);
    }
    if (query.performer !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM video_performers vp WHERE vp.video_id = v.id AND vp.performer_id = ${p.add(query.performer)})`);
    }
    if (query.featured !== undefined) where.push(query.featured ? 'v.featured > 0' : 'v.featured = 0');
    const tsQuery = query.q !== undefined ? toPrefixTsQuery(query.q) : null;
    if (tsQuery) where.push(`v.search_vector @@ to_tsquery('english', ${p.add(tsQuery)})`);

    const whereSql = where.join(' AND ');
    const countParams = [...p.values];
    const offset = (query.page - 1) * query.limit;
    const countSql = `SELECT count(*)::int AS total FROM videos v WHERE ${whereSql}`;
    const [rows, total] = await Promise.all([
      this.db.query<VideoCardRow[]>(
        `SELECT ${cardColumns('v')} FROM videos v
         WHERE ${whereSql} ORDER BY ${ORDER_BY[query.sort]} LIMIT ${p.add(query.limit)} OFFSET ${p.add(offset)}`,
        p.values,
      ),
      this.cache.wrap(
        `videos:total:${countSql}:${JSON.stringify(countParams)}`,
        async () => Number((await this.db.query<{ total: number }[]>(countSql, countParams))[0].total),
        TOTAL_TTL_MS,
      ),
    ]);
    return { data: await this.cards(rows), page: query.page, limit: query.limit, total };
  }

  async findOne(id: number): Promise<VideoDto> {
    const row = await this.repository.cardRow(id);
    if (!row) throw new NotFoundException(VIDEO_NOT_FOUND);
    const [taxa, pending] = await Promise.all([this.taxaOf(id), this.counters.pending([id])]);
    return toVideo(withPending(row, pending), taxa, this.config.imageHost);
  }

  /** The video's categories and performers with their names, each by name. */
  async taxaOf(id: number): Promise<{ categories: TaxonRefDto[]; performers: TaxonRefDto[] }> {
    const ids = await this.repository.taxonIds(id);
    const [categories, performers] = await Promise.all([
      this.taxa.refs('categories', ids.categories),
      this.taxa.refs('performers', ids.performers),
    ]);
    return { categories, performers };
  }

  /**
   * Videos sharing a performer or category, ranked by shared performers, then shared categories, then views;
   * when none share anything, up to 6 hot videos by the trending ranking. Never the video itself.
   */
  async related(id: number): Promise<RelatedVideosDto> {
    await this.assertPublished(id);
    const ranking = await this.cache.wrap(`videos:related:${id}`, () => this.rankRelated(id), RELATED_TTL_MS);
    return { related: ranking.related, data: await this.cardsByIds(ranking.ids) };
  }

  private async rankRelated(id: number): Promise<{ related: boolean; ids: number[] }> {
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

  /** Answers 404 "Video not found" unless the video exists and is published. */
  assertPublished(id: number): Promise<void> {
    return this.repository.assertPublished(id);
  }

  /** Cards for these ids in this order, leaving out any that are gone or unpublished since. */
  async cardsByIds(ids: number[]): Promise<VideoCardDto[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<VideoCardRow[]>(
      `SELECT ${cardColumns('v')} FROM videos v WHERE v.id = ANY($1::int[]) AND ${published('v')}`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return this.cards(ids.flatMap((id) => byId.get(id) ?? []));
  }

  /**
   * Cards from rows selected with `cardColumns(alias)`. Every card the API answers goes through here, so that
   * counts not yet written to the database can be added in one place.
   */
  async cards(rows: VideoCardRow[]): Promise<VideoCardDto[]> {
    const pending = await this.counters.pending(rows.map((r) => Number(r.id)));
    return rows.map((row) => toVideoCard(withPending(row, pending), this.config.imageHost));
  }

  /** Sets the duration the player measured, rounded down, only while the video has none. */
  async updateDuration(id: number, seconds: number): Promise<{ duration: number }> {
    // A raw UPDATE answers [rows, affected count].
    const [[updated]] = await this.db.query<[{ duration: number }[], number]>(
      `UPDATE videos v SET duration = $2 WHERE v.id = $1 AND ${published('v')} AND v.duration IS NULL RETURNING v.duration`,
      [id, Math.floor(seconds)],
    );
    if (updated) return { duration: Number(updated.duration) };
    const [row] = await this.db.query<{ duration: number | null }[]>(`SELECT v.duration FROM videos v WHERE v.id = $1 AND ${published('v')}`, [id]);
    if (!row) throw new NotFoundException(VIDEO_NOT_FOUND);
    return { duration: Number(row.duration) };
  }
}

function withPending(row: VideoCardRow, pending: PendingCounts): VideoCardRow {
  const p = pending.get(Number(row.id));
  return p ? { ...row, views: Number(row.views) + p.views, likes: Number(row.likes) + p.likes } : row;
}
