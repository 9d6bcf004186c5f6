import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { UnsupportedMediaError } from '../common/errors/domain-errors';
import { slugify } from '@hunktube/shared';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { UploadAcceptedDto, UploadVideoDto } from './dto/upload-video.dto';
import { INGEST_KIND } from './ingest.service';
import { JobRunner } from '../jobs/job-runner.service';
import { JobsService } from '../jobs/jobs.service';
import { tagNamesOf, TaxaRepository } from '../taxa/taxa.repository';
import { VideosRepository } from '../videos/videos.repository';
import { stemOf } from '../common/media-paths';
import { StorageService } from './storage.service';
import { isDependencyDown } from '../common/errors/dependency-errors';
import { sniffVideoType, type VideoType } from './video-type';

/** The extension a source is stored under, by its sniffed container. */
export const SOURCE_EXTENSIONS: Record<VideoType, string> = {
  mp4: '.mp4', matroska: '.mkv', avi: '.avi', mpegts: '.ts', mpegps: '.mpg', flv: '.flv',
};

/** What a held job says in the admin's list while its upload waits in the spool (docs/operating.md). */
export const SPOOLED = 'The media store cannot be reached: the upload is kept by the server that took it and sent when the store answers';

export const NOT_A_VIDEO = 'The file is not a video (MP4, MOV, MKV, WebM, AVI, MPEG-TS or FLV)';

/**
 * A new video from an uploaded file: checks the bytes, creates the video (unpublished until its media is
 * built), moves the file into the sources store and queues the ingest job.
 */
@Injectable()
export class UploadsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly videos: VideosRepository,
    private readonly taxa: TaxaRepository,
    private readonly storage: StorageService,
    private readonly jobs: JobsService,
    private readonly runner: JobRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async accept(uploadedPath: string, _originalName: string, dto: UploadVideoDto, now = new Date()): Promise<UploadAcceptedDto> {
    try {
      const type = sniffVideoType(await this.storage.readHead(uploadedPath, 512));
      if (!type) throw new UnsupportedMediaError(NOT_A_VIDEO);

      const base = slugify(dto.title, 80) || 'video';
      // The stored source is named by what its bytes are, never by the client's name (`clip.m3u8`).
      const ext = SOURCE_EXTENSIONS[type];
      const byId = (ids: string[] | undefined) => (ids ?? []).map((id) => ({ id }));
      // Checked before the file moves: unknown taxonomy costs no copy to the bucket.
      await this.taxa.resolve('categories', byId(dto.categories), this.db.manager);
      await this.taxa.resolve('performers', byId(dto.performers), this.db.manager);
      const tagNames = tagNamesOf(dto.tags ?? []);
      const slug = `${base}-${randomBytes(3).toString('hex')}`;
      const month = String(now.getUTCMonth() + 1).padStart(2, '0');
      const url = `/${now.getUTCFullYear()}/${month}/${slug}.mp4`;
      const source = `${stemOf(url)}${ext}`;
      const key = this.storage.keyOf('sources', source);
      // The source goes into the store before the transaction (with a bucket, a long upload that must not hold
      // a database connection), and is removed again when the video cannot be made. A bucket out of reach (or
      // lost mid-upload) keeps the upload in this server's spool instead, its job held until it is sent.
      const spooled = await this.storage.adopt(uploadedPath, key).then(
        () => false,
        (error: unknown) => {
          if (this.storage.store.driver === 's3' && isDependencyDown(error)) return true;
          throw error;
        },
      );
      let result: UploadAcceptedDto;
      try {
        result = await this.db.transaction(async (tx) => {
          const categories = await this.taxa.resolve('categories', byId(dto.categories), tx);
          const performers = await this.taxa.resolve('performers', byId(dto.performers), tx);
          const { ids: tags } = await this.taxa.resolveTagNames(tagNames, tx);
          const id = await this.videos.createProcessing(
            {
              slug, url, title: dto.title, atg_title: dto.atg_title ?? '', jtg_title: dto.jtg_title ?? '', featured: dto.featured ?? 0,
              upload_date: now.toISOString(), categories, performers, tags,
            },
            tx,
          );
          const jobId = await this.jobs.enqueue(id, INGEST_KIND, { source }, tx);
          if (spooled) await this.jobs.hold(jobId, SPOOLED, tx);
          return { id, job_id: jobId };
        });
      } catch (error) {
        if (!spooled) await this.storage.store.remove(key).catch(() => undefined);
        throw error;
      }
      // Spooled: sent by UploadSpool every STORE_RETRY_SECONDS until the bucket takes it.
      if (spooled) await this.storage.spool(uploadedPath, { key, jobId: result.job_id, videoId: result.id });
      else if (this.config.ingestWorker) this.runner.poke();
      return result;
    } finally {
      await this.storage.removeFile(uploadedPath);
    }
  }
}

