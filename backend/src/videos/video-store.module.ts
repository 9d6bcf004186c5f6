import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { ChangeBusModule } from '../common/cache/invalidation-bus';
import { CatalogueCache } from './catalogue-cache';
import { SiteStatsService } from './site-stats.service';
import { TrendingService } from './trending.service';
import { VideosRepository } from './videos.repository';

/**
 * The videos' data: the repository that owns the videos tables, the trending scores kept in them, and the
 * catalogue cache its writes keep right (announced to every process on the invalidation bus). Needs only the
 * database, the job runner and Redis when set, so that the worker and the CLIs can load it without the HTTP
 * API's counters.
 */
@Module({
  imports: [JobsModule, ChangeBusModule],
  providers: [VideosRepository, TrendingService, SiteStatsService, CatalogueCache],
  exports: [VideosRepository, TrendingService, SiteStatsService, CatalogueCache, ChangeBusModule],
})
export class VideoStoreModule {}
