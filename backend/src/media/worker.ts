import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { mediaContextModule } from './media-context';
import { ConfigError, loadConfig } from '../config/app-config';
import { JobRunner } from '../jobs/job-runner.service';
import { Metrics, metricsServer } from '../common/metrics/metrics';

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

  const app = await NestFactory.createApplicationContext(mediaContextModule(config, { metrics: config.metricsToken !== '' }), { logger: ['log', 'warn', 'error'] });
  app.enableShutdownHooks();
  if (config.metricsToken) {
    // The worker serves no HTTP but this: its job durations and process metrics, for the stack's Prometheus.
    const server = metricsServer(app.get(Metrics));
    server.listen(config.workerMetricsPort, config.host);
    process.once('SIGTERM', () => server.close());
    console.log(`Worker metrics on http://${config.host}:${config.workerMetricsPort}/metrics`);
  }
  console.log(`Ingest worker ${app.get(JobRunner).worker} is waiting for jobs`);
}

if (require.main === module) void main();
