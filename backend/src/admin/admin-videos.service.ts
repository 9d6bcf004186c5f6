import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { stemOf } from '../common/media-paths';
import { StorageService } from '../media/storage.service';
import { TaxaRepository } from '../taxa/taxa.repository';
import { TagsService } from '../taxonomy/tags.service';
import { CountersService } from '../videos/counters/counters.service';
import { type Chapter, EDIT_CONFLICT, editVersion, parseEditPrecondition } from '@hunktube/shared';
import type { EntityManager } from 'typeorm';
import { ConflictError, InvalidInputError, NotFoundError } from '../common/errors/domain-errors';
import type { VideoDto } from '../videos/dto/video.dto';
import { toVideo } from '../videos/video.mapper';
import { type EditableColumn, VIDEO_NOT_FOUND, VideosRepository, type VideoStatus } from '../videos/videos.repository';
import { VideosService } from '../videos/videos.service';
import type { NoErrorDto } from '../common/dto/no-error.dto';
import type { ChapterInputDto, UpdatedVideoDto, UpdateVideoDto } from './dto/update-video.dto';

export { SLUG_TAKEN, STEM_TAKEN } from '../videos/videos.repository';

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
} as const satisfies Partial<Record<keyof UpdateVideoDto, EditableColumn>>;

/**
 * The admin's edits of videos: the fields the admin panel writes, and deletion with the media files. Works on a
 * video in any state (an upload still processing or failed too); the catalogue only shows ready ones.
 */
@Injectable()
export class AdminVideosService {
  private readonly logger = new Logger(AdminVideosService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly videos: VideosService,
    private readonly repository: VideosRepository,
    private readonly counters: CountersService,
    private readonly taxa: TaxaRepository,
    private readonly storage: StorageService,
    private readonly tags: TagsService,
  ) {}

  /**
   * Writes the given fields and replaces the categories, performers and tags that are given (tags named for the
   * first time are created), in one transaction;
   * fields left out keep their values. Answers the video as the catalogue now shows it.
   */
  async update(dto: UpdateVideoDto, ifMatch?: string): Promise<UpdatedVideoDto> {
    // No header, or `*` (any version), is no precondition.
    const conditional = ifMatch !== undefined && ifMatch.trim() !== '*';
    const precondition = conditional ? parseEditPrecondition(ifMatch) : null;
    if (conditional && !precondition) {
      throw new InvalidInputError('If-Match must be the version the video was read at: "{editVersion}-{views}-{likes}"');
    }
    const values: Partial<Record<EditableColumn, unknown>> = {};
    for (const [field, column] of Object.entries(COLUMNS)) {
      const value = dto[field as keyof typeof COLUMNS];
      if (value !== undefined) values[column] = value;
    }
    if (dto.upload_date !== undefined) values.upload_date = isoDate(dto.upload_date);
    const chapters = dto.chapters && orderedChapters(dto.chapters);
    if (chapters) values.chapters = JSON.stringify(chapters);
    // With a precondition, views and likes are changes from the counts the admin read: what was counted since
    // (flushed or still buffered) stays. Without one, they are written as given.
    const countChanges = precondition
      ? { views: dto.views === undefined ? 0 : dto.views - precondition.views, likes: dto.likes === undefined ? 0 : dto.likes - precondition.likes }
      : null;
    if (countChanges) {
      delete values.views;
      delete values.likes;
    }

    // Buffered views and likes are added to what the database holds on every read and at the next flush: write
    // them first, so that the counts saved here are the totals from now on rather than a base for stale extras.
    if (dto.views !== undefined || dto.likes !== undefined) await this.counters.flush();

    // Only `tx` inside: PGlite runs one query runner at a time, so the outer DataSource would wait forever.
    const status = await this.repository.edit(dto.id, async (tx) => {
      const status = await this.repository.lockForEdit(dto.id, tx);
      if (chapters?.length) await this.assertChaptersFit(dto.id, chapters, tx);
      if (precondition && editVersion(await this.repository.editableFields(dto.id, tx)) !== precondition.version) {
        throw new ConflictError(EDIT_CONFLICT);
      }
      const categories = dto.categories && (await this.taxa.resolve('categories', dto.categories, tx));
      const performers = dto.performers && (await this.taxa.resolve('performers', dto.performers, tx));
      const tags = dto.tags && (await this.tags.resolveNames(dto.tags, tx));
      await this.repository.writeColumns(dto.id, values, tx);
      if (countChanges && (countChanges.views !== 0 || countChanges.likes !== 0)) await this.repository.addCounts(dto.id, countChanges, tx);
      if (categories) await this.repository.replaceTaxa(dto.id, 'categories', categories, tx);
      if (performers) await this.repository.replaceTaxa(dto.id, 'performers', performers, tx);
      if (tags) await this.repository.replaceTaxa(dto.id, 'tags', tags.ids, tx);
      return status;
    });

    return { data: await this.videoOf(dto.id, status), error: null };
  }

  /**
   * Deletes the video (the schema cascades its list entries, playlist items, stats and jobs), then its HLS and
   * image folders, unless another video's media lives in them.
   */
  async remove(id: number): Promise<NoErrorDto> {
    const url = await this.repository.delete(id);
    if (url === null) throw new NotFoundError(VIDEO_NOT_FOUND);

    const stem = stemOf(url);
    if (stem && !(await this.repository.stemInUse(stem))) {
      try {
        await this.storage.removeVideoMedia(stem);
      } catch (error) {
        // The video is gone either way; files left behind are garbage, not a failed delete.
        this.logger.error(`Could not remove the media of deleted video ${id} (${stem}): ${String(error)}`);
      }
    }
    return { error: null };
  }

  /** 400 when a chapter starts at or after the end of the video (when its duration is known). */
  private async assertChaptersFit(id: number, chapters: Chapter[], tx: EntityManager): Promise<void> {
    const duration = (await this.repository.cardRow(id, true, tx))?.duration;
    const last = chapters[chapters.length - 1];
    if (duration && last.start >= Number(duration)) {
      throw new InvalidInputError(`the chapter "${last.title}" starts at ${last.start} s, after the video ends (${Number(duration)} s)`);
    }
  }

  /** The video as GET /api/videos/{id} answers it; for one not published yet, the same shape. */
  private async videoOf(id: number, status: VideoStatus): Promise<VideoDto> {
    if (status === 'ready') return this.videos.findOne(id);
    const row = await this.repository.cardRow(id, true);
    if (!row) throw new NotFoundError(VIDEO_NOT_FOUND);
    return toVideo(row, await this.videos.detailsOf(id), this.config.imageHost);
  }
}

/** The chapters by start, titles trimmed; 400 when two start at the same second. */
function orderedChapters(chapters: ChapterInputDto[]): Chapter[] {
  const ordered = chapters.map(({ start, title }) => ({ start, title: title.trim() })).sort((a, b) => a.start - b.start);
  const twice = ordered.find((chapter, i) => i > 0 && ordered[i - 1].start === chapter.start);
  if (twice) throw new InvalidInputError(`two chapters start at ${twice.start} s: each needs a second of its own`);
  return ordered;
}

/** The instant an ISO 8601 date names, for the timestamptz column; 400 for one that names none. */
function isoDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InvalidInputError('upload_date must be an ISO 8601 date');
  return date.toISOString();
}
