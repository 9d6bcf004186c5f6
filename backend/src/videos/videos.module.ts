import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VideoDailyStat } from './video-daily-stat.entity';
import { Video } from './video.entity';
import { VideosController } from './videos.controller';
import { TrendingService } from './trending.service';
import { VideosService } from './videos.service';

@Module({
  imports: [TypeOrmModule.forFeature([Video, VideoDailyStat])],
  controllers: [VideosController],
  providers: [VideosService, TrendingService],
  exports: [VideosService, TrendingService],
})
export class VideosModule {}
