import { BadRequestException, Inject, Injectable, UnsupportedMediaTypeException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { slugify } from '../common/utils/slugify';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { UploadAcceptedDto, UploadVideoDto } from './dto/upload-video.dto';
import { INGEST_KIND } from './ingest.service';
import { JobRunner } from './job-runner.service';
import { JobsService } from './jobs.service';
import { stemOf } from './media-paths';
import { StorageService } from './storage.service';
import { sniffVideoType } from './video-type';

export const NOT_A_VIDEO = 'The file is not a video (MP4, MOV, MKV, WebM, AVI, MPEG-TS or FLV)';

/**
 * A new video from an uploaded file: checks the bytes, creates the video (unpublished until its media is
 * built), moves the file into the sources store and queues the ingest job.
 */
@Injectable()
export class UploadsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly storage: StorageService,
    private readonly jobs: JobsService,
    private readonly runner: JobRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async accept(uploadedPath: string, originalName: string, dto: UploadVideoDto, now = new Date()): Promise<UploadAcceptedDto> {
    try {
      const handle = await fs.open(uploadedPath, 'r');
      const head = Buffer.alloc(512);
      await handle.read(head, 0, 512, 0).finally(() => handle.close());
      if (!sniffVideoType(head)) throw new UnsupportedMediaTypeException(NOT_A_VIDEO);

      const base = slugify(dto.title, 80) || 'video';
      const ext = (path.extname(originalName).toLowerCase().match(/^\.[a-z0-9]{1,5}$/)?.[0]) ?? '.mp4';
      const result = await this.db.transaction(async (tx) => {
        for (const [table, ids] of [['categories', dto.categories ?? []], ['performers', dto.performers ?? []]] as const) {
          if (!ids.length) continue;
          const found = await tx.query<{ id: string }[]>(`SELECT id FROM ${table} WHERE id = ANY($1::varchar[])`, [ids]);
          const unknown = ids.find((id) => !found.some((f) => f.id === id));
          if (unknown) throw new BadRequestException(`Unknown ${table === 'categories' ? 'category' : 'performer'}: ${unknown}`);
        }
        const slug = `${base}-${randomBytes(3).toString('hex')}`;
        const month = String(now.getUTCMonth() + 1).padStart(2, '0');
        const url = `/${now.getUTCFullYear()}/${month}/${slug}.mp4`;
        const [{ id }] = await tx.query<{ id: number }[]>(
          `INSERT INTO videos (slug, url, title, atg_title, jtg_title, featured, upload_date, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'processing') RETURNING id`,
          [slug, url, dto.title, dto.atg_title ?? '', dto.jtg_title ?? '', dto.featured ?? 0, now.toISOString()],
        );
        for (const [join, column, ids] of [
          ['video_categories', 'category_id', dto.categories ?? []],
          ['video_performers', 'performer_id', dto.performers ?? []],
        ] as const) {
          if (ids.length) await tx.query(`INSERT INTO ${join} (video_id, ${column}) SELECT $1, unnest($2::varchar[]) ON CONFLICT DO NOTHING`, [id, [...new Set(ids)]]);
        }
        const source = `${stemOf(url)}${ext}`;
        const target = await this.storage.resolveInside(this.storage.sourcesRoot, source);
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(uploadedPath, target);
        const jobId = await this.jobs.enqueue(Number(id), INGEST_KIND, { source }, tx);
        return { id: Number(id), job_id: jobId };
      });
      if (this.config.ingestWorker) this.runner.poke();
      return result;
    } finally {
      await fs.rm(uploadedPath, { force: true });
    }
  }
}

