import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TaxaStoreModule } from '../taxa/taxa-store.module';
import { CardsController } from './cards.controller';
import { CountersController } from './counters.controller';
import { COUNTER_STORE } from './counters/counter-store';
import { CountersService } from './counters/counters.service';
import { FallbackCounterStore } from './counters/fallback-counter-store';
import { MemoryCounterStore } from './counters/memory-counter-store';
import { RedisCounterStore } from './counters/redis-counter-store';
import { VideoStoreModule } from './video-store.module';
import { VideosController } from './videos.controller';
import { VideoStatsController } from './video-stats.controller';
import { VideoStatsService } from './video-stats.service';
import { VideosService } from './videos.service';
import { HotAnswers, HotAnswersInterceptor } from './hot-answers';
import { SearchIndex } from './catalogue/search-index';

/** The catalogue's HTTP side: listings, detail, related, and the counters. */
@Module({
  imports: [VideoStoreModule, TaxaStoreModule],
  controllers: [VideosController, CardsController, CountersController, VideoStatsController],
  providers: [
    VideosService,
    VideoStatsService,
    CountersService,
    HotAnswers,
    HotAnswersInterceptor,
    SearchIndex,
    {
      provide: COUNTER_STORE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        config.redisUrl
          ? new FallbackCounterStore(new RedisCounterStore(config.redisUrl, `${config.redisPrefix}counters:`))
          : new MemoryCounterStore(),
    },
  ],
  exports: [VideoStoreModule, VideosService, CountersService, HotAnswers, HotAnswersInterceptor, SearchIndex],
})
export class VideosModule {}
