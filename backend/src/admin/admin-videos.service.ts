import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Cache } from 'cache-manager';
import { DataSource, EntityManager } from 'typeorm';
import { constraintOf, isUniqueViolation } from '../common/utils/database-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { stemOf } from '../media/media-paths';
import { StorageService } from '../media/storage.service';
import { TaxonomyService } from '../taxonomy/taxonomy.service';
import { CountersService } from '../videos/counters/counters.service';
import type { TaxonRefDto, VideoDto } from '../videos/dto/video.dto';
import type { VideoStatus } from '../videos/video.entity';
import { cardColumns, toVideo, type VideoCardRow } from '../videos/video.mapper';
import { VIDEO_NOT_FOUND, VideosService } from '../videos/videos.service';
import type { NoErrorDto } from '../common/dto/no-error.dto';
import type { UpdatedVideoDto, UpdateVideoDto } from './dto/update-video.dto';

export const SLUG_TAKEN = 'Slug is already taken by another video';
export const STEM_TAKEN = "Another video's url has the same stem: the two would share their media folders";

/** The DTO fields update-video writes, and their columns. */
const COLUMNS = {
  slug: 'slug',
  title: 'title',
  atg_title: 'atg_title',
  jtg_title: 'jtg_title',
  views: 'views',
  likes: 'likes',
  featured: 'featured',
  upload_date: 'upload_date',
  thumbnail: 'thumbnail',
  url: 'url',
} as const satisfies Partial<Record<keyof UpdateVideoDto, string>>;

/**
 * The admin's edits of videos: the fields the admin panel writes, and deletion with the media files. Works on a
 * video in any state (an upload still processing or failed too); the catalogue only shows ready ones.
 */
@Injectable()
export class AdminVideosService {
  private readonly logger = new Logger(AdminVideosService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly videos: VideosService,
    private readonly counters: CountersService,
    private readonly taxonomy: TaxonomyService,
    private readonly storage: StorageService,
  ) {}

  /**
   * Writes the given fields and replaces the categories and performers that are given, in one transaction;
   * fields left out keep their values. Answers the video as the catalogue now shows it.
   */
  async update(dto: UpdateVideoDto): Promise<UpdatedVideoDto> {
    const values: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMNS)) {
      const value = dto[field as keyof typeof COLUMNS];
      if (value !== undefined) values[column] = value;
    }
    if (dto.upload_date !== undefined) values.upload_date = isoDate(dto.upload_date);

    // Buffered views and likes are added to what the database holds on every read and at the next flush: write
    // them first, so that the counts saved here are the totals from now on rather than a base for stale extras.
    if (dto.views !== undefined || dto.likes !== undefined) await this.counters.flush();

    // Only `tx` inside: PGlite runs one query runner at a time, so the outer DataSource would wait forever.
    const status = await this.db.transaction(async (tx) => {
      const [video] = await tx.query<{ status: VideoStatus }[]>(`SELECT status FROM videos WHERE id = $1 FOR UPDATE`, [dto.id]);
      if (!video) throw new NotFoundException(VIDEO_NOT_FOUND);
      const categories = dto.categories && (await this.taxonomy.resolve('categories', dto.categories, tx));
      const performers = dto.performers && (await this.taxonomy.resolve('performers', dto.performers, tx));
      await this.writeColumns(tx, dto.id, values);
      if (categories) await replaceJoinRows(tx, 'video_categories', 'category_id', dto.id, categories);
      if (performers) await replaceJoinRows(tx, 'video_performers', 'performer_id', dto.id, performers);
      return video.status;
    });

    await this.cache.clear();
    return { data: await this.videoOf(dto.id, status), error: null };
  }

  /**
   * Deletes the video (the schema cascades its list entries, playlist items, stats and jobs), then its HLS and
   * image folders, unless another video's media lives in them.
   */
  async remove(id: number): Promise<NoErrorDto> {
    // A raw DELETE answers [rows, affected count].
    const [[deleted]] = await this.db.query<[{ url: string }[], number]>(`DELETE FROM videos WHERE id = $1 RETURNING url`, [id]);
    if (!deleted) throw new NotFoundException(VIDEO_NOT_FOUND);
    await this.cache.clear();

    const stem = stemOf(deleted.url);
    if (stem && !(await this.stemInUse(stem))) {
      try {
        await this.storage.removeVideoMedia(stem);
      } catch (error) {
        // The video is gone either way; files left behind are garbage, not a failed delete.
        this.logger.error(`Could not remove the media of deleted video ${id} (${stem}): ${String(error)}`);
      }
    }
    return { error: null };
  }

  private async writeColumns(tx: EntityManager, id: number, values: Record<string, unknown>): Promise<void> {
    const columns = Object.keys(values);
    if (columns.length === 0) return;
    const sets = columns.map((column, i) => `${column} = $${i + 2}`);
    try {
      await tx.query(`UPDATE videos SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [id, ...Object.values(values)]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(constraintOf(error) === 'videos_stem_key' ? STEM_TAKEN : SLUG_TAKEN);
      throw error;
    }
  }

  /** Whether another video's media folders are this stem's, or inside them. */
  private async stemInUse(stem: string): Promise<boolean> {
    const rows = await this.db.query<{ url: string }[]>(`SELECT url FROM videos WHERE strpos(url, $1) > 0`, [stem]);
    return rows.some((row) => {
      const other = stemOf(row.url);
      return other === stem || other.startsWith(`${stem}/`);
    });
  }

  /** The video as GET /api/videos/{id} answers it; for one not published yet, the same shape. */
  private async videoOf(id: number, status: VideoStatus): Promise<VideoDto> {
    if (status === 'ready') return this.videos.findOne(id);
    const [row] = await this.db.query<VideoCardRow[]>(`SELECT ${cardColumns('v')} FROM videos v WHERE v.id = $1`, [id]);
    if (!row) throw new NotFoundException(VIDEO_NOT_FOUND);
    const taxa = (table: string, column: string, kind: string) =>
      this.db.query<TaxonRefDto[]>(
        `SELECT t.id, t.name FROM ${table} j JOIN ${kind} t ON t.id = j.${column} WHERE j.video_id = $1 ORDER BY t.name, t.id`,
        [id],
      );
    const categories = await taxa('video_categories', 'category_id', 'categories');
    const performers = await taxa('video_performers', 'performer_id', 'performers');
    return toVideo(row, { categories, performers }, this.config.imageHost);
  }
}

async function replaceJoinRows(tx: EntityManager, table: string, column: string, videoId: number, ids: string[]): Promise<void> {
  await tx.query(`DELETE FROM ${table} WHERE video_id = $1`, [videoId]);
  if (ids.length) await tx.query(`INSERT INTO ${table} (video_id, ${column}) SELECT $1, unnest($2::varchar[])`, [videoId, ids]);
}

/** The instant an ISO 8601 date names, for the timestamptz column; 400 for one that names none. */
function isoDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new BadRequestException('upload_date must be an ISO 8601 date');
  return date.toISOString();
}
