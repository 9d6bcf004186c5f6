import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { JobRunner } from '../jobs/job-runner.service';
import { MediaModule } from './media.module';

/**
 * `npm run worker`: runs jobs outside the API (the container stack's worker service), on the same database and
 * media store, and the tasks that run once per deployment (the trending recompute). Several workers may run:
 * each claims jobs with SKIP LOCKED, and a scheduled task's run with one upsert.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = { ...loadConfig(), ingestWorker: true };
    if (!config.databaseUrl) throw new ConfigError('The worker needs DATABASE_URL: the embedded database belongs to the API process, which runs its own jobs');
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule, MediaModule] })
  class WorkerModule {}

  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: ['log', 'warn', 'error'] });
  app.enableShutdownHooks();
  console.log(`Ingest worker ${app.get(JobRunner).worker} is waiting for jobs`);
}

void main();
