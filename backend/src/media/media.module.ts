import { MediaMigration } from './media-migration.service';
import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { diskStorage } from 'multer';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JobsModule } from '../jobs/jobs.module';
import { TaxaStoreModule } from '../taxa/taxa-store.module';
import { VideoStoreModule } from '../videos/video-store.module';
import { AdminVideosController } from './admin-videos.controller';
import { HlsRekeyService } from './hls-rekey.service';
import { IngestService } from './ingest.service';
import { MediaController } from './media.controller';
import { MediaService } from './media.service';
import { StorageModule } from './storage.module';
import { StorageService } from './storage.service';
import { UploadSpool } from './upload-spool';
import { UploadsService } from './uploads.service';

/**
 * Media: uploads, the ingest job handler (ffmpeg), signed stream URLs. Owns no table: new videos are created,
 * published and failed through the videos' repository, jobs queued through the jobs module.
 */
@Module({
  imports: [
    StorageModule,
    JobsModule,
    VideoStoreModule,
    TaxaStoreModule,
    // Uploads stream to disk as they arrive, never whole into memory.
    MulterModule.registerAsync({
      imports: [StorageModule],
      inject: [APP_CONFIG, StorageService],
      useFactory: (config: AppConfig, storage: StorageService) => ({
        storage: diskStorage({ destination: (_req, _file, done) => done(null, storage.incomingUploadsDir()) }),
        limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20 },
      }),
    }),
  ],
  controllers: [MediaController, AdminVideosController],
  providers: [MediaService, IngestService, UploadsService, HlsRekeyService, UploadSpool, MediaMigration],
  exports: [StorageModule, UploadsService, HlsRekeyService],
})
export class MediaModule {}
