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
import { CaptionsController } from './captions.controller';
import { CaptionsService } from './captions.service';

@Module({
  imports: [VideosModule, MediaModule, TaxonomyModule, JobsModule],
  controllers: [AdminController, AdminJobsController, CaptionsController],
  providers: [AdminService, AdminVideosService, ThumbnailsService, AdminJobsService, CaptionsService],
})
export class AdminModule {}
