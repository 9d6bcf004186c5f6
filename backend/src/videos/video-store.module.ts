import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { TrendingService } from './trending.service';
import { VideosRepository } from './videos.repository';

/**
 * The videos' data: the repository that owns the videos tables, and the trending scores kept in them. Needs
 * only the database and the job runner, so that the worker and the CLIs can load it without the HTTP API's
 * caches and counters.
 */
@Module({
  imports: [JobsModule],
  providers: [VideosRepository, TrendingService],
  exports: [VideosRepository, TrendingService],
})
export class VideoStoreModule {}
