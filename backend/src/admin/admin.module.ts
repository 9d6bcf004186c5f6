import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { MediaModule } from '../media/media.module';
import { TaxonomyModule } from '../taxonomy/taxonomy.module';
import { VideosModule } from '../videos/videos.module';
import { AdminJobsController } from './admin-jobs.controller';
import { AdminJobsService } from './admin-jobs.service';
import { AdminVideosService } from './admin-videos.service';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';
import { ThumbnailsService } from './thumbnails.service';

@Module({
  imports: [VideosModule, MediaModule, TaxonomyModule, JobsModule],
  controllers: [AdminController, AdminJobsController],
  providers: [AdminService, AdminVideosService, ThumbnailsService, AdminJobsService],
})
export class AdminModule {}
