import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { CountersController } from './counters.controller';
import { COUNTER_STORE } from './counters/counter-store';
import { CountersService } from './counters/counters.service';
import { MemoryCounterStore } from './counters/memory-counter-store';
import { RedisCounterStore } from './counters/redis-counter-store';
import { TrendingService } from './trending.service';
import { VideoDailyStat } from './video-daily-stat.entity';
import { Video } from './video.entity';
import { VideosController } from './videos.controller';
import { VideosService } from './videos.service';

@Module({
  imports: [TypeOrmModule.forFeature([Video, VideoDailyStat])],
  controllers: [VideosController, CountersController],
  providers: [
    VideosService,
    TrendingService,
    CountersService,
    {
      provide: COUNTER_STORE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        config.redisUrl ? new RedisCounterStore(config.redisUrl, `${config.redisPrefix}counters:`) : new MemoryCounterStore(),
    },
  ],
  exports: [VideosService, TrendingService, CountersService],
})
export class VideosModule {}
