import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { SiteController } from './site.controller';
import { SiteMetrics } from './site-metrics';
import { VideosModule } from '../videos/videos.module';

@Module({
  imports: [VideosModule],
  controllers: [SiteController, HealthController],
  providers: [SiteMetrics],
})
export class SiteModule {}
