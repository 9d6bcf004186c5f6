import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Metrics, metricsServer } from '../src/common/metrics/metrics';
import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { SITE_RANKINGS_TASK } from '../src/videos/site-stats.service';
import { loadConfig } from '../src/config/app-config';
import { JobRunner } from '../src/jobs/job-runner.service';
import { JobsService } from '../src/jobs/jobs.service';
import { INGEST_KIND } from '../src/media/ingest.service';
import { mediaContextModule } from '../src/media/media-context';
import { DAILY_STATS_PRUNE_TASK, TRENDING_TASK } from '../src/videos/trending.service';
import { VideosRepository } from '../src/videos/videos.repository';
import { createServerDatabase, onPostgresServer } from './helpers/test-app';

/**
 * The context that `npm run worker`, `npm run media:import` and the ingest bench start: no HTTP, no cache. It
 * must resolve on its own and carry every job handler and scheduled task the API process would.
 */
describe('the worker and CLI context (e2e)', () => {
  let app: INestApplicationContext;
  let dir: string;
  let dropDatabase = async () => undefined as void;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'worker-context-'));
    let databaseUrl: string | undefined;
    if (onPostgresServer()) ({ databaseUrl, dropDatabase } = await createServerDatabase(process.env.TEST_DATABASE_URL as string));
    const config = {
      ...loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dir,
        INGEST_WORKER: 'false',
        METRICS_TOKEN: 'worker-metrics-token-0123',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      }),
      inMemoryDatabase: !databaseUrl,
    };
    app = await NestFactory.createApplicationContext(mediaContextModule(config, { metrics: true }), { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await dropDatabase();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs an ingest job with the ingest handler, and marks the video failed when it fails for good', async () => {
    const db = app.get(DataSource);
    const id = await db.transaction((tx) =>
      app.get(VideosRepository).createProcessing(
        { slug: 'no-source', url: '/2026/11/no-source.mp4', title: 'No Source', atg_title: '', jtg_title: '', featured: 0, upload_date: new Date().toISOString(), categories: [], performers: [] },
        tx,
      ),
    );
    const jobId = await app.get(JobsService).enqueue(id, INGEST_KIND, { source: '2026/11/no-source.mp4' });
    await app.get(JobRunner).drain();
    const job = await app.get(JobsService).find(jobId);
    expect(job).toMatchObject({ state: 'failed', attempts: 3 });
    // The worker's own metrics (it serves no other HTTP): every attempt timed by kind and outcome.
    const server = metricsServer(app.get(Metrics)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/other`)).status).toBe(404);
      const scraped = await fetch(`${base}/metrics`, { headers: { Authorization: 'Bearer worker-metrics-token-0123' } });
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toContain(`job_duration_seconds_count{kind="${INGEST_KIND}",outcome="retry"} 2`);
      expect(text).toContain(`job_duration_seconds_count{kind="${INGEST_KIND}",outcome="failed"} 1`);
    } finally {
      server.close();
    }
    expect(job?.error).not.toMatch(/Unknown job kind/);
    expect(job?.error).not.toContain(dir); // no server paths for admins
    const [video] = await db.query('SELECT status FROM videos WHERE id = $1', [id]);
    expect(video.status).toBe('failed');
  });

  it('runs the trending recompute, the pruning of old per-day rows and the dashboard’s rankings as the scheduled tasks of this deployment', async () => {
    await app.get(JobRunner).runDueTasks();
    const rows = await app.get(DataSource).query('SELECT name FROM scheduled_tasks ORDER BY name');
    expect(rows.map((r: { name: string }) => r.name)).toEqual([DAILY_STATS_PRUNE_TASK, SITE_RANKINGS_TASK, TRENDING_TASK]);
    const [{ n }] = await app.get(DataSource).query('SELECT count(*)::int AS n FROM site_rankings');
    expect(Number(n)).toBe(2);
  });
});
