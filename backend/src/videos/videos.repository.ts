import { createHash } from 'node:crypto';
import type { ExcludedTopics } from '@hunktube/shared';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource, type EntityManager } from 'typeorm';
import { readOrRecall } from '../common/errors/dependency-errors';
import { ConflictError, NotFoundError } from '../common/errors/domain-errors';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { touches, VIDEO_FIELDS, type VideoField } from '../common/cache/change-events';
import { constraintOf, isUniqueViolation } from '../common/utils/database-errors';
import type { Chapter, EditableVideo } from '@hunktube/shared';
import { stemOf } from '../common/media-paths';
import type { TaxonKind } from '../taxa/taxa.repository';
import type { CounterDelta } from './counters/counter-store';
import { cardColumns, type StoredCaption, type VideoCardRow } from './video.mapper';
import { RECOMPUTE_TRENDING_SQL, trendingScoresSql } from './trending';
import { CatalogueCache } from './catalogue-cache';

export type VideoStatus = 'processing' | 'ready' | 'failed';

export const VIDEO_NOT_FOUND = 'Video not found';
export const SLUG_TAKEN = 'Slug is already taken by another video';
export const STEM_TAKEN = "Another video's url has the same stem: the two would share their media folders";

/**
 * "Published": the one definition. A video is in the catalogue once its media is built (`ready`); until then
 * (`processing`) or after a failed ingest (`failed`) it is in no listing and answers 404.
 */
export const published = (alias: string): string => `${alias}.status = 'ready'`;

/**
 * SQL that joins the videos table as `alias` on `on`, for other modules' reads of their lists with the videos'
 * cards (read only; nobody but this module writes `videos`). Published videos only, unless `all`.
 */
export const joinVideos = (alias: string, on: string, all = false): string =>
  `JOIN videos ${alias} ON ${alias}.id = ${on}${all ? '' : ` AND ${published(alias)}`}`;

/** The join table of each kind of taxon, owned with the videos (a video's categories and performers). */
const TAXON_JOIN: Record<TaxonKind, { table: string; column: string }> = {
  categories: { table: 'video_categories', column: 'category_id' },
  performers: { table: 'video_performers', column: 'performer_id' },
  tags: { table: 'video_tags', column: 'tag_id' },
};

/** The jsonb `chapters` column as the drivers answer it: parsed (pg), or its text. */
type StoredChapters = Chapter[] | string;
const chaptersFrom = (stored: StoredChapters): Chapter[] => (typeof stored === 'string' ? (JSON.parse(stored) as Chapter[]) : stored);

/** The columns an admin's edit may write. Never from input: the DTO's fields are mapped to these. */
export type EditableColumn =
  | 'slug' | 'title' | 'atg_title' | 'jtg_title' | 'views' | 'likes' | 'featured' | 'upload_date' | 'thumbnail' | 'url'
  | 'chapters';

export interface NewVideo {
  slug: string;
  url: string;
  title: string;
  atg_title: string;
  jtg_title: string;
  featured: number;
  upload_date: string;
  categories: string[];
  performers: string[];
  /** Existing tag ids (TaxaRepository.resolveTagNames). */
  tags?: string[];
}

/** What a video sitemap says of one published video (`publishedBlock`). */
export interface SitemapVideoRow {
  id: number;
  title: string;
  atg_title: string;
  jtg_title: string;
  thumbnail: string;
  url: string;
  media_ready: boolean;
  duration: number | null;
  /** Stored views, without what the counters still buffer. */
  views: number;
  upload_date: Date | string;
  categories: string[];
  performers: string[];
  tags: string[];
}

export interface MediaFacts {
  durationSeconds: number;
  width: number;
  height: number;
  /** The tallest rendition's height (the ladder's top rung); the source's height when not given. */
  renditionHeight?: number;
}

/**
 * The owner of `videos`, `video_categories`, `video_performers`, `video_tags` and `video_daily_stats`: every write to them,
 * and every read another module needs, goes through here (the catalogue's own listing, detail and related
 * queries live beside it in VideosService). Needs nothing but the database, so that the worker can use it.
 * Methods that take a `manager` run in the caller's transaction.
 */
@Injectable()
export class VideosRepository {
  /**
   * What this process last read of a video's state and stored counts, for the counters to go on with while
   * the database is down (a view of a video known to be published is buffered, its count answered from here
   * plus the buffer). Only read when the database does not answer; every write here forgets the video, and a
   * flush adds its counts. 50,000 videos at about 100 bytes each.
   */
  private readonly lastKnown = new LRUCache<number, { published: boolean; views?: number; likes?: number }>({ max: 50_000 });
  /** The same for the media signer: published stems and their durations. */
  private readonly lastKnownStems = new LRUCache<string, { id: number; duration: number | null }>({ max: 50_000 });

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cache: CatalogueCache,
    private readonly bus: InvalidationBus,
  ) {
    // What it last read of a video may be wrong once the video changed, here or in another process.
    bus.declareCache('videos: last known states and stems', {
      VideoChanged: (event) => {
        for (const id of event.ids) this.lastKnown.delete(id);
        // Keyed by stem, which an edit of the url changes: rare enough to start over.
        if (touches(event, 'url', 'status', 'duration')) this.lastKnownStems.clear();
      },
    });
  }

  async isPublished(id: number, manager?: EntityManager): Promise<boolean> {
    if (manager) {
      // Inside a caller's transaction: what that transaction sees, and nothing to go on with if it fails.
      const [row] = await manager.query<unknown[]>(`SELECT 1 FROM videos v WHERE v.id = $1 AND ${published('v')}`, [id]);
      return row !== undefined;
    }
    return readOrRecall(
      async () => (await this.publishedRows([id])).has(id),
      () => this.lastKnown.get(id)?.published,
    );
  }

  /**
   * The stored counts of a video known at once to be published (its row is in the catalogue cache, which is
   * usable), without the database; undefined when that takes a query (say, the video is not published).
   */
  keptPublishedCounts(id: number): { views: number; likes: number } | undefined {
    return this.cache.keptCounts(id);
  }

  /** `Video not found` unless the video exists and is published. */
  async assertPublished(id: number, manager?: EntityManager): Promise<void> {
    if (!(await this.isPublished(id, manager))) throw new NotFoundError(VIDEO_NOT_FOUND);
  }

  async isEmpty(): Promise<boolean> {
    const [{ empty }] = await this.db.query<{ empty: boolean }[]>('SELECT NOT EXISTS (SELECT 1 FROM videos) AS empty');
    return empty;
  }

  /** The card columns of one video, published only unless `anyState` (an admin reads processing ones too). */
  async cardRow(id: number, anyState = false, manager: EntityManager = this.db.manager): Promise<VideoCardRow | null> {
    if (!anyState) return (await this.publishedRows([id])).get(id) ?? null;
    const [row] = await manager.query<VideoCardRow[]>(`SELECT ${cardColumns('v')} FROM videos v WHERE v.id = $1`, [id]);
    return row ?? null;
  }

  /**
   * The card columns of those of `ids` that are published, with their stored counts (without what the counters
   * still buffer), from the catalogue cache where it has them.
   */
  publishedRows(ids: number[]): Promise<Map<number, VideoCardRow>> {
    return this.cache.rowsOf(ids, async (missing) => {
      const rows = await this.db.query<VideoCardRow[]>(
        `SELECT ${cardColumns('v')} FROM videos v WHERE v.id = ANY($1::int[]) AND ${published('v')}`,
        [missing],
      );
      const found = new Set(rows.map((row) => Number(row.id)));
      for (const row of rows) this.know(Number(row.id), { published: true, views: Number(row.views), likes: Number(row.likes) });
      for (const id of missing) if (!found.has(id)) this.know(id, { published: false });
      return rows;
    });
  }

  /**
   * A page of the published videos that carry any of `performerIds`, newest upload first (ties: higher id), each
   * once, with their number; both kept in the catalogue cache per set of performers until the catalogue changes.
   * Each performer's newest are read from its own range of video_performers' newest index (index only, at most
   * `offset + limit` of them) and merged, so a page reads at most min(total, performers × (offset + limit)) rows.
   * Walking the catalogue's newest index and checking each video against the set instead was measured slower at
   * every size (docs/benchmarks.md › "Catalogue at scale": each check tests a video's performers against the whole set).
   */
  async newestWithPerformers(performerIds: string[], limit: number, offset: number): Promise<{ ids: number[]; total: number }> {
    if (performerIds.length === 0) return { ids: [], total: 0 };
    const set = [...new Set(performerIds)].sort();
    const key = `followed:${createHash('sha1').update(set.join('\n')).digest('base64url')}`;
    const total = await this.cache.derive(`${key}:total`, 'catalogue', async () => {
      const [row] = await this.db.query<{ total: number }[]>(
        `SELECT count(DISTINCT video_id)::int AS total FROM video_performers WHERE performer_id = ANY($1::varchar[]) AND ready`,
        [set],
      );
      return Number(row.total);
    });
    if (total === 0 || offset >= total) return { ids: [], total };
    const ids = await this.cache.derive(`${key}:${limit}:${offset}`, 'catalogue', async () => {
      const rows = await this.db.query<{ video_id: number }[]>(
        `SELECT video_id FROM (
           SELECT DISTINCT ON (t.video_id) t.video_id, t.upload_date
           FROM unnest($1::varchar[]) AS f(id)
           CROSS JOIN LATERAL (
             SELECT vp.video_id, vp.upload_date FROM video_performers vp
             WHERE vp.performer_id = f.id AND vp.ready
             ORDER BY vp.upload_date DESC, vp.video_id DESC LIMIT $2
           ) t
         ) merged
         ORDER BY upload_date DESC, video_id DESC LIMIT $3 OFFSET $4`,
        [set, offset + limit, limit, offset],
      );
      return rows.map((row) => Number(row.video_id));
    });
    return { ids, total };
  }

  /** The ids of the video's categories, performers and tags. */
  async taxonIds(id: number, manager: EntityManager = this.db.manager): Promise<Record<TaxonKind, string[]>> {
    const rows = await manager.query<{ kind: TaxonKind; id: string }[]>(
      `SELECT 'categories' AS kind, category_id AS id FROM video_categories WHERE video_id = $1
       UNION ALL SELECT 'performers', performer_id FROM video_performers WHERE video_id = $1
       UNION ALL SELECT 'tags', tag_id FROM video_tags WHERE video_id = $1`,
      [id],
    );
    const ids: Record<TaxonKind, string[]> = { categories: [], performers: [], tags: [] };
    for (const row of rows) ids[row.kind].push(row.id);
    return ids;
  }

  /** Those of `ids` that carry any of these topics. */
  async carryingAny(ids: number[], topics: ExcludedTopics): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.query<{ video_id: number }[]>(
      `SELECT video_id FROM video_categories WHERE video_id = ANY($1::int[]) AND category_id = ANY($2::varchar[])
       UNION SELECT video_id FROM video_performers WHERE video_id = ANY($1::int[]) AND performer_id = ANY($3::varchar[])
       UNION SELECT video_id FROM video_tags WHERE video_id = ANY($1::int[]) AND tag_id = ANY($4::varchar[])`,
      [ids, topics.categories, topics.performers, topics.tags],
    );
    return new Set(rows.map((row) => Number(row.video_id)));
  }

  /** The video's chapters as stored (ascending by start), [] for none or an unknown video. */
  async chaptersOf(id: number): Promise<Chapter[]> {
    const [row] = await this.db.query<{ chapters: StoredChapters }[]>('SELECT chapters FROM videos WHERE id = $1', [id]);
    return row ? chaptersFrom(row.chapters) : [];
  }

  /** The video's caption files, by language. */
  async captionsOf(id: number): Promise<StoredCaption[]> {
    const rows = await this.db.query<{ lang: string; label: string; updated_at: Date | string }[]>(
      'SELECT lang, label, updated_at FROM video_captions WHERE video_id = $1 ORDER BY lang',
      [id],
    );
    return rows.map((row) => ({ lang: row.lang, label: row.label, updatedAt: new Date(row.updated_at) }));
  }

  /** Records a caption file written for the video (a new one, or one replacing its language's); answers it. */
  async putCaption(id: number, lang: string, label: string): Promise<StoredCaption> {
    const [row] = await this.db.query<{ updated_at: Date | string }[]>(
      `INSERT INTO video_captions (video_id, lang, label) VALUES ($1, $2, $3)
       ON CONFLICT (video_id, lang) DO UPDATE SET label = EXCLUDED.label, updated_at = now()
       RETURNING updated_at`,
      [id, lang, label],
    );
    this.changed(id, ['captions']);
    return { lang, label, updatedAt: new Date(row.updated_at) };
  }

  /** Forgets the video's caption file in `lang`; false when it had none. */
  async removeCaption(id: number, lang: string): Promise<boolean> {
    const [, removed] = await this.db.query<[unknown[], number]>('DELETE FROM video_captions WHERE video_id = $1 AND lang = $2', [id, lang]);
    if (Number(removed) === 0) return false;
    this.changed(id, ['captions']);
    return true;
  }

  /** How many published videos carry each category or performer (those with none are left out). */
  async publishedCountsByTaxon(kind: TaxonKind): Promise<Map<string, number>> {
    const { table, column } = TAXON_JOIN[kind];
    const rows = await this.db.query<{ id: string; count: number }[]>(
      `SELECT j.${column} AS id, count(*)::int AS count
       FROM ${table} j ${joinVideos('v', 'j.video_id')}
       GROUP BY j.${column}`,
    );
    return new Map(rows.map((row) => [row.id, Number(row.count)]));
  }

  /** Id, title and status of those of `ids` that exist, in any state. */
  async summaries(ids: number[]): Promise<{ id: number; title: string; status: VideoStatus }[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<{ id: number; title: string; status: VideoStatus }[]>(
      'SELECT id, title, status FROM videos WHERE id = ANY($1::int[])',
      [ids],
    );
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /** The id and duration of the published video whose media stem this is; undefined when there is none. */
  async publishedByStem(stem: string): Promise<{ id: number; duration: number | null } | undefined> {
    return readOrRecall(
      async () => {
        const [row] = await this.db.query<{ id: number; duration: number | null }[]>(
          `SELECT v.id, v.duration FROM videos v WHERE v.stem = $1 AND ${published('v')}`,
          [stem],
        );
        const found = row && { id: Number(row.id), duration: row.duration === null ? null : Number(row.duration) };
        if (found) this.lastKnownStems.set(stem, found);
        else this.lastKnownStems.delete(stem);
        return found;
      },
      // While the database is down, a stream this process signed before can still be signed: playback goes on.
      () => this.lastKnownStems.get(stem),
    );
  }

  // --- sitemaps (seo module) -----------------------------------------------------------------------------------

  /**
   * The blocks of `size` consecutive ids (block n holds ids (n-1)·size+1 … n·size) that hold at least one
   * published video, in order: the video sitemap files. One index-only pass over the published ids.
   */
  async publishedIdBlocks(size: number): Promise<number[]> {
    const rows = await this.db.query<{ block: string }[]>(
      `SELECT DISTINCT (v.id - 1) / $1::int + 1 AS block FROM videos v WHERE ${published('v')} ORDER BY block`,
      [size],
    );
    return rows.map((row) => Number(row.block));
  }

  /**
   * The published videos of block `block` of `size` ids, by id, with their categories' and performers' ids: one
   * statement, a range of the primary key (keyset paging by id), never more than `size` rows.
   */
  async publishedBlock(block: number, size: number): Promise<SitemapVideoRow[]> {
    const from = (block - 1) * size + 1;
    const to = block * size;
    const rows = await this.db.query<SitemapVideoRow[]>(
      `WITH c AS (SELECT video_id, array_agg(category_id ORDER BY category_id) AS ids FROM video_categories
                  WHERE video_id BETWEEN $1 AND $2 GROUP BY video_id),
            p AS (SELECT video_id, array_agg(performer_id ORDER BY performer_id) AS ids FROM video_performers
                  WHERE video_id BETWEEN $1 AND $2 GROUP BY video_id),
            g AS (SELECT video_id, array_agg(tag_id ORDER BY tag_id) AS ids FROM video_tags
                  WHERE video_id BETWEEN $1 AND $2 GROUP BY video_id)
       SELECT v.id, v.title, v.atg_title, v.jtg_title, v.thumbnail, v.url, v.media_ready, v.duration, v.views,
              v.upload_date, COALESCE(c.ids, '{}') AS categories, COALESCE(p.ids, '{}') AS performers, COALESCE(g.ids, '{}') AS tags
       FROM videos v LEFT JOIN c ON c.video_id = v.id LEFT JOIN p ON p.video_id = v.id LEFT JOIN g ON g.video_id = v.id
       WHERE v.id BETWEEN $1 AND $2 AND ${published('v')}
       ORDER BY v.id`,
      [from, to],
    );
    return rows.map((row) => ({ ...row, id: Number(row.id), views: Number(row.views), duration: row.duration === null ? null : Number(row.duration) }));
  }

  /** The url of a video in any state (its media stem), or null when it is gone. */
  async urlOf(id: number): Promise<string | null> {
    const [row] = await this.db.query<{ url: string }[]>('SELECT url FROM videos WHERE id = $1', [id]);
    return row?.url ?? null;
  }

  /** Whether another video's media folders are this stem's, or inside them. */
  async stemInUse(stem: string): Promise<boolean> {
    const rows = await this.db.query<{ url: string }[]>(`SELECT url FROM videos WHERE strpos(url, $1) > 0`, [stem]);
    return rows.some((row) => {
      const other = stemOf(row.url);
      return other === stem || other.startsWith(`${stem}/`);
    });
  }

  // --- writes -------------------------------------------------------------------------------------------------

  /** A new upload, unpublished until its media is built, with its categories, performers and tags. */
  async createProcessing(video: NewVideo, manager: EntityManager): Promise<number> {
    const [{ id }] = await manager.query<{ id: number }[]>(
      `INSERT INTO videos (slug, url, title, atg_title, jtg_title, featured, upload_date, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'processing') RETURNING id`,
      [video.slug, video.url, video.title, video.atg_title, video.jtg_title, video.featured, video.upload_date],
    );
    for (const kind of ['categories', 'performers', 'tags'] as const) {
      const { table, column } = TAXON_JOIN[kind];
      const ids = [...new Set(video[kind] ?? [])];
      if (ids.length) await manager.query(`INSERT INTO ${table} (video_id, ${column}) SELECT $1, unnest($2::varchar[]) ON CONFLICT DO NOTHING`, [id, ids]);
    }
    return Number(id);
  }

  /** The ingest built the media: the video is published with what the probe measured. */
  async publish(id: number, stem: string, facts: MediaFacts): Promise<void> {
    await this.db.query(
      `UPDATE videos SET status = 'ready', media_ready = true, duration = $2, width = $3, height = $4,
              rendition_height = $6, thumbnail = CASE WHEN thumbnail = '' THEN $5 ELSE thumbnail END, updated_at = now()
       WHERE id = $1`,
      [id, Math.max(1, Math.floor(facts.durationSeconds)), facts.width, facts.height, `/thumbs/${stem}/poster.jpg`, facts.renditionHeight ?? facts.height],
    );
    this.changed(id, ['status', 'media', 'duration', 'thumbnail']);
  }

  /** The ingest gave up: the upload stays out of the catalogue, marked failed. */
  async markFailed(id: number): Promise<void> {
    await this.db.query(`UPDATE videos SET status = 'failed' WHERE id = $1 AND status = 'processing'`, [id]);
    this.changed(id, ['status']);
  }

  /** Locks the video's row until the transaction ends and answers its status; NotFound when it is gone. */
  async lockForEdit(id: number, manager: EntityManager): Promise<VideoStatus> {
    const [video] = await manager.query<{ status: VideoStatus }[]>(`SELECT status FROM videos WHERE id = $1 FOR UPDATE`, [id]);
    if (!video) throw new NotFoundError(VIDEO_NOT_FOUND);
    return video.status;
  }

  /** Writes an admin's edit of these columns; a taken slug or media stem is a Conflict. */
  async writeColumns(id: number, values: Partial<Record<EditableColumn, unknown>>, manager: EntityManager): Promise<void> {
    const columns = Object.keys(values);
    if (columns.length === 0) return;
    const sets = columns.map((column, i) => `${column} = $${i + 2}`);
    try {
      await manager.query(`UPDATE videos SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [id, ...Object.values(values)]);
      this.changed(id, columns as EditableColumn[]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(constraintOf(error) === 'videos_stem_key' ? STEM_TAKEN : SLUG_TAKEN);
      throw error;
    }
  }

  /** The fields an admin edits, as the edit version (`editVersion` of @hunktube/shared) reads them. */
  async editableFields(id: number, manager: EntityManager): Promise<EditableVideo> {
    const [row] = await manager.query<(Omit<EditableVideo, 'upload_date' | 'categories' | 'performers' | 'chapters'> & { upload_date: Date | string; chapters: StoredChapters })[]>(
      `SELECT slug, title, atg_title, jtg_title, featured, upload_date, thumbnail, url, chapters FROM videos WHERE id = $1`,
      [id],
    );
    if (!row) throw new NotFoundError(VIDEO_NOT_FOUND);
    const taxa = await this.taxonIds(id, manager);
    return {
      ...row,
      chapters: chaptersFrom(row.chapters),
      featured: Number(row.featured),
      upload_date: new Date(row.upload_date).toISOString(),
      categories: taxa.categories.map((taxonId) => ({ id: taxonId })),
      performers: taxa.performers.map((taxonId) => ({ id: taxonId })),
      tags: taxa.tags.map((taxonId) => ({ id: taxonId })),
    };
  }

  /** Adds an admin's change of the counts to what they are now (never below zero). */
  async addCounts(id: number, change: { views: number; likes: number }, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE videos SET views = GREATEST(0, views + $2), likes = GREATEST(0, likes + $3), updated_at = now() WHERE id = $1`,
      [id, change.views, change.likes],
    );
    this.changed(id, ['views', 'likes']);
  }

  /** Replaces the video's categories, performers or tags with these (existing) ids. */
  async replaceTaxa(id: number, kind: TaxonKind, ids: string[], manager: EntityManager): Promise<void> {
    const { table, column } = TAXON_JOIN[kind];
    await manager.query(`DELETE FROM ${table} WHERE video_id = $1`, [id]);
    this.changed(id, [kind]);
    if (ids.length) await manager.query(`INSERT INTO ${table} (video_id, ${column}) SELECT $1, unnest($2::varchar[])`, [id, ids]);
  }

  /**
   * Gives every video tagged `from` the tag `into` instead (a merge of two tags); answers the videos changed.
   * In the caller's transaction; announced at once, and again by the caller after the commit (`tagsChanged`).
   */
  async moveTag(from: string, into: string, manager: EntityManager): Promise<number[]> {
    await manager.query(`INSERT INTO video_tags (video_id, tag_id) SELECT video_id, $2 FROM video_tags WHERE tag_id = $1 ON CONFLICT DO NOTHING`, [from, into]);
    return this.untag(from, manager);
  }

  /** Takes the tag off every video; answers the videos changed (announced as for `moveTag`). */
  async untag(tag: string, manager: EntityManager): Promise<number[]> {
    const rows = await manager.query<{ video_id: number }[]>(
      `WITH gone AS (DELETE FROM video_tags WHERE tag_id = $1 RETURNING video_id) SELECT video_id FROM gone`,
      [tag],
    );
    const ids = rows.map((row) => Number(row.video_id));
    this.tagsChanged(ids);
    return ids;
  }

  /** Announces that these videos' tags changed (after a commit of `moveTag` or `untag`). */
  tagsChanged(ids: number[]): void {
    if (ids.length > 0) this.bus.publish({ type: 'VideoChanged', ids, fields: ['tags'] });
  }

  /**
   * Deletes the video (the schema cascades its list entries, playlist items, stats and jobs); answers its url,
   * or null when there was none.
   */
  async delete(id: number): Promise<string | null> {
    // A raw DELETE answers [rows, affected count].
    const [[deleted]] = await this.db.query<[{ url: string }[], number]>(`DELETE FROM videos WHERE id = $1 RETURNING url`, [id]);
    this.changed(id, VIDEO_FIELDS);
    return deleted?.url ?? null;
  }

  /** The stored views and likes of a video (0 when it is gone), without what the counters still buffer. */
  async storedCounts(id: number): Promise<{ views: number; likes: number }> {
    return readOrRecall(
      async () => {
        const row = (await this.publishedRows([id])).get(id);
        if (row) return { views: Number(row.views), likes: Number(row.likes) };
        const [stored] = await this.db.query<{ views: number; likes: number }[]>('SELECT views, likes FROM videos WHERE id = $1', [id]);
        return { views: Number(stored?.views ?? 0), likes: Number(stored?.likes ?? 0) };
      },
      () => {
        const known = this.lastKnown.get(id);
        return known?.views !== undefined && known.likes !== undefined ? { views: known.views, likes: known.likes } : undefined;
      },
    );
  }

  /**
   * Adds a flush of buffered counts in one transaction (the flush calls `countsApplied` once they have left the
   * buffer): lifetime views and likes on the videos, trending signals
   * and likes in today's per-day stats, then the touched videos' trending scores. Deleted videos match no row.
   * `batch` names the flush's batch: a batch already added (its write committed, then its removal from the buffer
   * failed or its commit's answer was lost, and the next flush writes it again) changes nothing and answers false.
   */
  async applyCounts(deltas: CounterDelta[], batch: string): Promise<boolean> {
    const ids = deltas.map((d) => d.videoId);
    const col = (field: 'views' | 'likes' | 'trending') => deltas.map((d) => d[field]);
    const trending = deltas.filter((d) => d.trending !== 0).map((d) => d.videoId);
    const applied = await this.db.transaction(async (tx) => {
      const fresh = await tx.query<unknown[]>('INSERT INTO applied_counter_batches (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id', [batch]);
      if (fresh.length === 0) return false;
      // The day's stats first: the videos' one UPDATE below reads them for the trending scores. A day's likes are
      // the likes given that day: one taken back later leaves the day it was given as it was. One statement
      // on videos per flush, because each fires the triggers that copy sort keys into the join tables.
      // `views` there is the day's trending signals (what the trending sort weighs), `counted_views` its counted
      // views (the statistics'); the site's day adds the same views and likes up.
      await tx.query(
        `INSERT INTO video_daily_stats (video_id, day, views, likes, counted_views)
         SELECT d.id, CURRENT_DATE, d.trending, GREATEST(d.likes, 0), GREATEST(d.views, 0)
         FROM unnest($1::int[], $2::int[], $3::int[], $4::int[]) AS d(id, trending, likes, views)
         JOIN videos v ON v.id = d.id
         WHERE d.trending <> 0 OR d.likes > 0 OR d.views > 0
         ON CONFLICT (video_id, day) DO UPDATE
         SET views = video_daily_stats.views + EXCLUDED.views, likes = video_daily_stats.likes + EXCLUDED.likes,
             counted_views = video_daily_stats.counted_views + EXCLUDED.counted_views`,
        [ids, col('trending'), col('likes'), col('views')],
      );
      await tx.query(
        `INSERT INTO site_daily_stats (day, views, likes)
         SELECT CURRENT_DATE, COALESCE(sum(GREATEST(d.views, 0)), 0), COALESCE(sum(GREATEST(d.likes, 0)), 0)
         FROM unnest($1::int[], $2::int[], $3::int[]) AS d(id, views, likes)
         JOIN videos v ON v.id = d.id
         HAVING sum(GREATEST(d.views, 0)) > 0 OR sum(GREATEST(d.likes, 0)) > 0
         ON CONFLICT (day) DO UPDATE
         SET views = site_daily_stats.views + EXCLUDED.views, likes = site_daily_stats.likes + EXCLUDED.likes`,
        [ids, col('views'), col('likes')],
      );
      await tx.query(
        `UPDATE videos v SET views = v.views + d.views, likes = GREATEST(v.likes + d.likes, 0),
                trending_score = CASE WHEN d.trending <> 0 THEN COALESCE(t.score, 0) ELSE v.trending_score END
         FROM unnest($1::int[], $2::int[], $3::int[], $4::int[]) AS d(id, views, likes, trending)
         LEFT JOIN (${trendingScoresSql('AND video_id = ANY($5::int[])')}) t ON t.video_id = d.id
         WHERE v.id = d.id AND (d.views <> 0 OR d.likes <> 0 OR d.trending <> 0)`,
        [ids, col('views'), col('likes'), col('trending'), trending],
      );
      return true;
    });
    if (!applied) return false;
    for (const d of deltas) {
      const known = this.lastKnown.get(d.videoId);
      if (known?.views !== undefined && known.likes !== undefined) {
        this.lastKnown.set(d.videoId, { ...known, views: known.views + d.views, likes: Math.max(0, known.likes + d.likes) });
      }
    }
    return true;
  }

  /** Removes per-video days older than `keepDays` (the site's days stay); answers how many rows went. */
  async pruneDailyStats(keepDays: number): Promise<number> {
    const [, count] = await this.db.query<[unknown[], number]>('DELETE FROM video_daily_stats WHERE day < CURRENT_DATE - $1::int', [keepDays]);
    return Number(count ?? 0);
  }

  /** Forgets the ids of counter batches added more than 7 days ago (a batch is written again within seconds, or after a Redis outage). */
  async pruneAppliedBatches(): Promise<void> {
    await this.db.query(`DELETE FROM applied_counter_batches WHERE applied_at < now() - interval '7 days'`);
  }

  /**
   * After a flush's counts have left the counters' buffer: every process's rows cache adds them (and pages
   * ordered by counts are read again). Called by the counter store as the counts leave it (see `drain`).
   */
  countsApplied(deltas: CounterDelta[]): void {
    const written = deltas.filter((d) => d.views !== 0 || d.likes !== 0 || d.trending !== 0); // trending: its score was rewritten
    this.bus.publish({ type: 'CountsFlushed', deltas: written.map((d) => [d.videoId, d.views, d.likes]) });
  }

  private know(id: number, facts: { published?: boolean; views?: number; likes?: number }): void {
    const known = this.lastKnown.get(id);
    this.lastKnown.set(id, { published: known?.published ?? false, ...known, ...facts });
  }

  /**
   * After a write: every process's memory of the video, and every kept answer, may be wrong now (each cache
   * declares what a VideoChanged evicts). Writes in a caller's transaction announce it at once and again after
   * the commit (see `edit`), so that a read between the two cannot keep what the transaction replaced.
   */
  private changed(id: number, fields: readonly VideoField[]): void {
    this.bus.publish({ type: 'VideoChanged', ids: [id], fields });
  }

  /** Recomputes every video's trending score; answers how many changed. */
  async recomputeTrending(): Promise<number> {
    const result = await this.db.query<[unknown[], number]>(RECOMPUTE_TRENDING_SQL);
    this.bus.publish({ type: 'RankingRecomputed' });
    return Array.isArray(result) ? Number(result[1] ?? 0) : 0;
  }

  /**
   * Runs an edit of one video in a transaction (lock it with `lockForEdit`, then write with the methods that
   * take a manager), and announces the change once it is committed, or rolled back.
   */
  async edit<T>(id: number, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } finally {
      this.changed(id, VIDEO_FIELDS); // what the work wrote is its own announcements' business; after the commit, all of it
    }
  }

  /** Sets the duration the player measured, rounded down, only while the published video has none. */
  async setMissingDuration(id: number, seconds: number): Promise<{ duration: number } | null> {
    // A raw UPDATE answers [rows, affected count].
    const [[updated]] = await this.db.query<[{ duration: number }[], number]>(
      `UPDATE videos v SET duration = $2 WHERE v.id = $1 AND ${published('v')} AND v.duration IS NULL RETURNING v.duration`,
      [id, Math.floor(seconds)],
    );
    if (updated) {
      this.changed(id, ['duration']);
      return { duration: Number(updated.duration) };
    }
    const [row] = await this.db.query<{ duration: number | null }[]>(`SELECT v.duration FROM videos v WHERE v.id = $1 AND ${published('v')}`, [id]);
    return row ? { duration: Number(row.duration) } : null;
  }
}
