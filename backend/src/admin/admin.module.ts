import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { VideosModule } from '../videos/videos.module';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';

@Module({
  imports: [VideosModule, MediaModule],
  controllers: [AdminController],
  providers: [AdminService],
})
export class AdminModule {}
