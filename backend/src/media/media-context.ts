import { type INestApplicationContext, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MediaModule } from './media.module';
import { MetricsModule } from '../common/metrics/metrics';

/**
 * The application context of the processes that run jobs without the HTTP API: `npm run worker`,
 * `npm run media:import` and the ingest benchmark. No cache, no counters, no controllers served.
 */
export function mediaContextModule(config: AppConfig, { metrics = false }: { metrics?: boolean } = {}): Type {
  // The worker's metrics (its job durations: GET /metrics on WORKER_METRICS_PORT); the commands have none.
  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule, MediaModule, ...(metrics ? [MetricsModule] : [])] })
  class MediaContextModule {}
  return MediaContextModule;
}

/**
 * The media commands' context (media:rekey, media:encrypt, media:migrate): the settings from the environment, no
 * ingest worker, no demo catalogue; a setting missing or malformed is said and the process exits 1.
 */
export async function openMediaCommandContext(): Promise<INestApplicationContext> {
  let config: AppConfig;
  try {
    config = { ...loadConfig(), ingestWorker: false, demoSeed: false };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  return NestFactory.createApplicationContext(mediaContextModule(config), { logger: ['warn', 'error'] });
}
