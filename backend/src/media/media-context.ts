import { Module, type Type } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MediaModule } from './media.module';

/**
 * The application context of the processes that run jobs without the HTTP API: `npm run worker`,
 * `npm run media:import` and the ingest benchmark. No cache, no counters, no controllers served.
 */
export function mediaContextModule(config: AppConfig): Type {
  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule, MediaModule] })
  class MediaContextModule {}
  return MediaContextModule;
}
