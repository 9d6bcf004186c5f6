import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import request from 'supertest';
import { JobsService } from '../src/jobs/jobs.service';
import { HLS_SWEEP_KIND } from '../src/media/hls-rekey.service';
import { insertVideo } from './helpers/factories';
import { standInWeb, type StandInWeb } from './helpers/stand-in-web';
import { bearer, createTestApp, registerAdmin, type TestApp, waitForJob } from './helpers/test-app';

const TOKEN = 'metrics-token-for-the-test-0123';

/** One metric's samples in Prometheus' text format: `name{labels} value` lines, by their labels. */
function samples(text: string, name: string): { labels: string; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const at = line.lastIndexOf(' ');
      return { labels: line.slice(name.length, at), value: Number(line.slice(at + 1)) };
    });
}

/**
 * `GET /metrics` (issue #33, point 4): Prometheus' text format behind METRICS_TOKEN, scraped after real traffic
 * (reads, a kept answer, rendered pages, a job, an upload its client abandons), every metric the issue names there.
 */
describe('GET /metrics (e2e)', () => {
  let t: TestApp;
  let web: StandInWeb;
  let text: string;

  beforeAll(async () => {
    web = standInWeb();
    t = await createTestApp(
      { METRICS_TOKEN: TOKEN, REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: `metrics-${randomBytes(4).toString('hex')}:` },
      { webRoot: web.webRoot },
    );
    const admin = await registerAdmin(t);
    const id = await insertVideo(t.db, { title: 'Measured Video' });
    for (let i = 0; i < 3; i++) await request(t.http).get('/api/videos').expect(200);
    await request(t.http).get(`/api/videos/${id}`).expect(200);
    await request(t.http).get('/api/no-such-thing/at-all').expect(404);
    for (let i = 0; i < 2; i++) await request(t.http).get('/categories').expect(200);
    await request(t.http).post('/api/video/increment-views').send({ videoId: id }).expect(200);

    // A job run to its end, whatever it finds (no folder to sweep).
    const jobId = await t.app.get(JobsService).enqueue(id, HLS_SWEEP_KIND, { stem: 'nowhere/at-all', files: [], keyIds: [] });
    await waitForJob(t, jobId, (job) => job.attempts >= 1 && job.state !== 'running');

    // An upload whose client goes away half-way.
    await t.app.listen(0, '127.0.0.1');
    const url = new URL(await t.app.getUrl());
    await new Promise<void>((resolve) => {
      const upload = http.request({
        host: url.hostname, port: url.port, path: '/api/admin/videos', method: 'POST',
        headers: { ...bearer(admin), 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': 10_000_000 },
      });
      upload.on('error', () => resolve());
      upload.write(Buffer.alloc(100_000));
      setTimeout(() => {
        upload.destroy();
        setTimeout(resolve, 300);
      }, 300);
    });

    const scraped = await request(t.http).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(scraped.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scraped.headers['cache-control']).toBe('no-store');
    text = scraped.text;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    web?.remove();
  });

  it('refuses a scrape without the bearer token, or with another, in the error shape', async () => {
    const none = await request(t.http).get('/metrics').expect(401);
    expect(none.body).toEqual({ error: 'Unauthorized', statusCode: 401 });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    await request(t.http).get('/metrics').set('Authorization', `Bearer ${TOKEN.slice(0, -1)}x`).expect(401);
    await request(t.http).get('/metrics').set('Authorization', TOKEN).expect(401);
  });

  it("has prom-client's process and event-loop metrics", () => {
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(samples(text, name).length, name).toBeGreaterThan(0);
    }
  });

  it('times requests by method, route template and status, with one series for every unmatched path', () => {
    const count = (labels: string) => samples(text, 'http_request_duration_seconds_count').find((s) => s.labels === labels)?.value;
    expect(count('{method="GET",route="/api/videos/:id",status="200"}')).toBe(1);
    expect(count('{method="GET",route="/api/videos",status="200"}')).toBe(3);
    expect(count('{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(count('{method="GET",route="page",status="200"}')).toBe(2);
    expect(count('{method="POST",route="/api/video/increment-views",status="200"}')).toBe(1);
    expect(samples(text, 'http_request_duration_seconds_bucket').length).toBeGreaterThan(10);
  });

  it('counts a client that went away as an abort, not as an answer', () => {
    expect(samples(text, 'http_requests_aborted_total')).toContainEqual({ labels: '{method="POST",route="/api/admin/videos"}', value: 1 });
  });

  it('has the job queue by kind and state, and the job durations by kind and outcome', () => {
    expect(text).toContain('# TYPE jobs_queued gauge');
    const runs = samples(text, 'job_duration_seconds_count').filter((s) => s.labels.includes(`kind="${HLS_SWEEP_KIND}"`));
    expect(runs.reduce((n, s) => n + s.value, 0)).toBe(1);
  });

  it("has the counters' flush lag and buffered videos", () => {
    const [lag] = samples(text, 'counter_flush_lag_seconds');
    expect(lag.value).toBeGreaterThanOrEqual(0);
    expect(samples(text, 'counter_buffered_videos')).toEqual([{ labels: '', value: 1 }]);
  });

  it('has the hits and misses of the kept answers and of the rendered pages', () => {
    const kept = Object.fromEntries(samples(text, 'kept_answers_total').map((s) => [s.labels, s.value]));
    expect(kept['{outcome="hit"}']).toBeGreaterThanOrEqual(1);
    expect(kept['{outcome="miss"}']).toBeGreaterThanOrEqual(1);
    expect(samples(text, 'rendered_pages_total')).toEqual(expect.arrayContaining([{ labels: '{outcome="drawn"}', value: 1 }, { labels: '{outcome="kept"}', value: 1 }]));
  });

  it("has the search index's state, the database pool, Redis' fallback state and the change bus", () => {
    expect(samples(text, 'search_index_state')).toContainEqual({ labels: '{state="off"}', value: 1 });
    expect(samples(text, 'db_pool_connections').find((s) => s.labels === '{state="total"}')?.value).toBeGreaterThanOrEqual(1);
    expect(samples(text, 'redis_fallback')).toEqual([{ labels: '', value: 0 }]);
    expect(samples(text, 'invalidation_bus_live')).toEqual([{ labels: '', value: 1 }]);
  });
});

describe('GET /metrics without METRICS_TOKEN (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('is not there', async () => {
    await request(t.http).get('/metrics').set('Authorization', 'Bearer anything-at-all-0123').expect(404);
  });
});
