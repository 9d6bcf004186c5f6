import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { diskStorage } from 'multer';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AdminVideosController } from './admin-videos.controller';
import { FfmpegRunner } from './ffmpeg.runner';
import { IngestService } from './ingest.service';
import { JobRunner } from './job-runner.service';
import { JobsService } from './jobs.service';
import { MediaController } from './media.controller';
import { MediaService } from './media.service';
import { StorageService } from './storage.service';
import { UploadsService } from './uploads.service';

@Module({
  imports: [
    // Uploads stream to disk as they arrive, never whole into memory.
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const incoming = path.join(config.mediaDir, 'sources', '.uploads');
        return {
          storage: diskStorage({
            destination: (_req, _file, done) => {
              mkdirSync(incoming, { recursive: true });
              done(null, incoming);
            },
          }),
          limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20 },
        };
      },
    }),
  ],
  controllers: [MediaController, AdminVideosController],
  providers: [StorageService, MediaService, FfmpegRunner, JobsService, IngestService, JobRunner, UploadsService],
  exports: [StorageService, JobsService, JobRunner],
})
export class MediaModule {}
