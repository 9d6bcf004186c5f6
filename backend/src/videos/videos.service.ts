import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { VideoCardDto, VideoCardPageDto, VideoDto, RelatedVideosDto } from './dto/video.dto';
import type { ListVideosQuery, VideoSort } from './dto/list-videos.query';
import { CACHE_MAX_AGE_MS, CatalogueCache } from './catalogue-cache';
import { type CatalogueFilter, type CatalogueReader, catalogueFilterOf, HOT_FALLBACK_LIMIT, RELATED_LIMIT, withExcluded, withTagSynonyms } from './catalogue/catalogue-reader';
import { type ExcludedTopics, parseExclude } from '@hunktube/shared';
import { LRUCache } from 'lru-cache';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { SqlCatalogueReader } from './catalogue/sql-catalogue-reader';
import type { PendingCounts } from './counters/counter-store';
import { CountersService } from './counters/counters.service';
import { toVideo, toVideoCard, VideoCardRow, type VideoDetails } from './video.mapper';
import { TaxaRepository } from '../taxa/taxa.repository';
import { VIDEO_NOT_FOUND, VideosRepository } from './videos.repository';
import { SearchIndex } from './catalogue/search-index';
import { NotFoundError } from '../common/errors/domain-errors';

export { VIDEO_NOT_FOUND };
export { HOT_FALLBACK_LIMIT, RELATED_LIMIT };
/** Members whose hidden topics are kept in memory (a few hundred bytes each). */
const HIDDEN_TOPICS_KEPT = 10_000;
/** Sorts whose order moves with the counts: their pages are read again after every counter flush. */
const COUNT_SORTS: ReadonlySet<VideoSort> = new Set(['most-viewed', 'top-rated', 'trending']);

@Injectable()
export class VideosService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cache: CatalogueCache,
    private readonly counters: CountersService,
    private readonly repository: VideosRepository,
    private readonly taxa: TaxaRepository,
    private readonly bus: InvalidationBus,
    search: SearchIndex,
  ) {
    this.reader = search.reader(new SqlCatalogueReader(db));
    bus.declareCache("members' hidden topics", {
      HiddenTopicsChanged: ({ userId }) => {
        this.hidden.delete(userId);
        this.hiddenGeneration++;
      },
      CachesCleared: () => {
        this.hidden.clear();
        this.hiddenGeneration++;
      },
    });
  }

  /** Members' hidden topics as last read, by member id (`hiddenFor`). */
  private readonly hidden = new LRUCache<string, ExcludedTopics>({ max: HIDDEN_TOPICS_KEPT, ttl: CACHE_MAX_AGE_MS });
  private hiddenGeneration = 0;

  /** Every catalogue read: the in-memory index while it is loaded and current, else the database. */
  private readonly reader: CatalogueReader;

  /**
   * A listing page: its ids and the filter's total from the catalogue cache (a page ordered by counts is read
   * again after every flush), its cards from the rows cache plus what the counters buffer.
   */
  async list(query: ListVideosQuery, memberId?: string | null): Promise<VideoCardPageDto> {
    // `uploaded` becomes an instant rounded down to the minute: one cache key a minute per listing address.
    const hidden = await this.hiddenFor(memberId);
    const filter = await this.withSynonyms(hidden ? withExcluded(catalogueFilterOf(query), hidden) : catalogueFilterOf(query));
    const filterKey = JSON.stringify(filter);
    const total = await this.cache.derive(`total:${filterKey}`, 'catalogue', () => this.reader.total(filter));
    const ids = await this.cache.derive(
      `page:${query.sort}:${query.page}:${query.limit}:${filterKey}`,
      COUNT_SORTS.has(query.sort) ? 'counts' : 'catalogue',
      () => this.reader.pageIds({ ...filter, sort: query.sort, page: query.page, limit: query.limit }, total),
    );
    return { data: await this.cardsByIds(ids), page: query.page, limit: query.limit, total };
  }

  /**
   * The topics a member hides (docs/decisions.md › "Hidden topics"), kept per member until they change them; null
   * for a guest or a member who hides nothing.
   */
  async hiddenFor(memberId?: string | null): Promise<ExcludedTopics | null> {
    if (!memberId) return null;
    let topics = this.bus.live ? this.hidden.get(memberId) : undefined;
    if (!topics) {
      const generation = this.hiddenGeneration;
      topics = await this.taxa.hiddenOf(memberId);
      // A change announced while it was read: answered, not kept.
      if (this.bus.live && generation === this.hiddenGeneration) this.hidden.set(memberId, topics);
    }
    return topics.categories.length || topics.performers.length || topics.tags.length ? topics : null;
  }

  /**
   * Of these ids, those carrying none of the member's hidden topics nor those of `exclude` (as GET /api/videos
   * reads it), in order.
   */
  async withoutHidden(ids: number[], memberId?: string | null, exclude?: string): Promise<number[]> {
    if (ids.length === 0) return ids;
    const hidden = await this.hiddenFor(memberId);
    // Validated by the query's DTO; an empty one leaves nothing out.
    const asked = exclude ? parseExclude(exclude) : null;
    const topics = hidden && asked ? withExcluded({ exclude: asked }, hidden).exclude : (hidden ?? asked);
    if (!topics) return ids;
    const canonical = (await this.withSynonyms({ exclude: topics })).exclude ?? topics;
    const dropped = await this.repository.carryingAny(ids, canonical);
    return ids.filter((id) => !dropped.has(id));
  }

  /** The filter with its tags read through the synonyms (kept in the catalogue cache until a taxon changes). */
  private async withSynonyms(filter: CatalogueFilter): Promise<CatalogueFilter> {
    if (filter.tag === undefined && !filter.exclude?.tags.length) return filter;
    const pairs = await this.cache.derive('tags:synonyms', 'catalogue', async () => [...(await this.taxa.tagSynonyms())]);
    return withTagSynonyms(filter, new Map(pairs));
  }

  async findOne(id: number): Promise<VideoDto> {
    const row = await this.repository.cardRow(id);
    if (!row) throw new NotFoundError(VIDEO_NOT_FOUND);
    const [taxa, pending] = await Promise.all([
      this.cache.derive(`details:${id}`, 'catalogue', () => this.detailsOf(id)),
      this.counters.pending([id]),
    ]);
    return toVideo(withPending(row, pending), taxa, this.config.imageHost);
  }

  /** The video's categories, performers and tags with their names, each by name, its chapters and its captions. */
  async detailsOf(id: number): Promise<VideoDetails> {
    const [ids, chapters, captions] = await Promise.all([this.repository.taxonIds(id), this.repository.chaptersOf(id), this.repository.captionsOf(id)]);
    const [categories, performers, tags] = await Promise.all([
      this.taxa.refs('categories', ids.categories),
      this.taxa.refs('performers', ids.performers),
      this.taxa.refs('tags', ids.tags),
    ]);
    return { categories, performers, tags, chapters, captions };
  }

  /**
   * Videos sharing a performer or category, ranked by shared performers, then shared categories, then views;
   * when none share anything, up to 6 hot videos by the trending ranking. Never the video itself. The ranking
   * is kept until the catalogue changes (its order by views may lag the counts until then); the cards are not.
   */
  async related(id: number, memberId?: string | null, exclude?: string): Promise<RelatedVideosDto> {
    await this.assertPublished(id);
    const ranking = await this.cache.derive(`related:${id}`, 'catalogue', () => this.reader.related(id));
    return { related: ranking.related, data: await this.cardsByIds(await this.withoutHidden(ranking.ids, memberId, exclude)) };
  }

  /** Answers 404 "Video not found" unless the video exists and is published. */
  assertPublished(id: number): Promise<void> {
    return this.repository.assertPublished(id);
  }

  /** Cards for these ids in this order, leaving out any that are gone or unpublished since. */
  async cardsByIds(ids: number[]): Promise<VideoCardDto[]> {
    if (ids.length === 0) return [];
    const rows = await this.repository.publishedRows(ids);
    return this.cards(ids.flatMap((id) => rows.get(id) ?? []));
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
    const duration = await this.repository.setMissingDuration(id, seconds);
    if (!duration) throw new NotFoundError(VIDEO_NOT_FOUND);
    return duration;
  }
}

function withPending(row: VideoCardRow, pending: PendingCounts): VideoCardRow {
  const p = pending.get(Number(row.id));
  return p ? { ...row, views: Number(row.views) + p.views, likes: Number(row.likes) + p.likes } : row;
}
