import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { TaxonRefDto, VideoCardDto, VideoCardPageDto, VideoDto, RelatedVideosDto } from './dto/video.dto';
import type { ListVideosQuery } from './dto/list-videos.query';
import { CatalogueQueries, HOT_FALLBACK_LIMIT, type ListFilter, RELATED_LIMIT } from './catalogue-queries';
import type { PendingCounts } from './counters/counter-store';
import { CountersService } from './counters/counters.service';
import { cardColumns, toVideo, toVideoCard, VideoCardRow } from './video.mapper';
import { TaxaRepository } from '../taxonomy/taxa.repository';
import { published, VIDEO_NOT_FOUND, VideosRepository } from './videos.repository';

export { VIDEO_NOT_FOUND };
export { HOT_FALLBACK_LIMIT, RELATED_LIMIT };
/** How long a listing's `total` may lag behind the catalogue: counting a whole catalogue per page is the cost. */
export const TOTAL_TTL_MS = 30_000;
/** How long a video's related ranking is reused; the cards themselves (counts) are always read fresh. */
export const RELATED_TTL_MS = 5 * 60_000;

@Injectable()
export class VideosService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly counters: CountersService,
    private readonly repository: VideosRepository,
    private readonly taxa: TaxaRepository,
  ) {
    this.queries = new CatalogueQueries(db);
  }

  private readonly queries: CatalogueQueries;

  async list(query: ListVideosQuery): Promise<VideoCardPageDto> {
    const filter: ListFilter = { category: query.category, performer: query.performer, featured: query.featured, q: query.q };
    const total = await this.cache.wrap(`videos:total:${JSON.stringify(filter)}`, () => this.queries.total(filter), TOTAL_TTL_MS);
    const ids = await this.queries.pageIds(query, total);
    return { data: await this.cardsByIds(ids), page: query.page, limit: query.limit, total };
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
    const ranking = await this.cache.wrap(`videos:related:${id}`, () => this.queries.related(id), RELATED_TTL_MS);
    return { related: ranking.related, data: await this.cardsByIds(ranking.ids) };
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
