import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { DemoSeedService } from '../src/database/seeds/demo-seed.service';
import { JobRunner } from '../src/jobs/job-runner.service';
import { createTestApp, TestApp } from './helpers/test-app';

describe('The demo catalogue (e2e, real ffmpeg)', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'demo-'));
    // The runner is driven by the test, so that only one clip is made.
    t = await createTestApp({ MEDIA_DIR: path.join(dir, 'media'), INGEST_WORKER: 'false' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const variants = async (video: { stream_path: string }) => {
    const { secureUrl } = (await request(t.http).get('/api/video/secure').query({ path: video.stream_path }).expect(200)).body;
    const master = (await request(t.http).get(secureUrl).expect(200)).text;
    expect(master).toMatch(/^#EXTM3U/);
    return master.split('\n').filter((line) => line.endsWith('.m3u8'));
  };

  it('queues one clip per demo video, cheapest first, and a queued clip becomes a playable video on the light ladder', async () => {
    const jobIds = await t.app.get(DemoSeedService).seed();
    expect(jobIds).toHaveLength(24);
    const [{ processing }] = await t.db.query(`SELECT count(*)::int AS processing FROM videos WHERE status = 'processing'`);
    expect(processing).toBe(24);
    expect((await request(t.http).get('/api/videos').expect(200)).body.total).toBe(0);
    const [first] = await t.db.query('SELECT payload FROM ingest_jobs WHERE id = $1', [jobIds[0]]);
    // The cheapest clip comes first, so that the site shows a video within seconds of a first start.
    expect(first.payload.demo).toMatchObject({ seconds: 10, height: 480, title: expect.any(String) });

    // Make only the first, shortened to 3 seconds.
    await t.db.query(`UPDATE ingest_jobs SET state = 'failed' WHERE id <> $1`, [jobIds[0]]);
    await t.db.query(`UPDATE ingest_jobs SET payload = jsonb_set(payload, '{demo,seconds}', '3') WHERE id = $1`, [jobIds[0]]);
    await t.app.get(JobRunner).drain();

    const [job] = await t.db.query('SELECT state, error FROM ingest_jobs WHERE id = $1', [jobIds[0]]);
    expect(job).toEqual({ state: 'done', error: null });
    await t.clearCaches(); // listing totals may lag 30 s behind the catalogue
    const list = await request(t.http).get('/api/videos').expect(200);
    expect(list.body.total).toBe(1);
    const video = (await request(t.http).get(`/api/videos/${list.body.data[0].id}`).expect(200)).body;
    expect(video).toMatchObject({ duration: 3, title: first.payload.demo.title });
    expect(video.preview).toMatch(/\/preview\.mp4$/);
    expect(video.categories.length + video.performers.length).toBeGreaterThan(0);
    // A demo clip gets two rungs where an upload of the same 480p file gets three (next test).
    expect(await variants(video)).toEqual(['240p.m3u8', '480p.m3u8']);
  }, 120_000);

  it('gives the same file the full ladder when it is not a demo clip', async () => {
    // The demo clip made above, queued again for another video as an upload is: a source and nothing else.
    const [demo] = await t.db.query(`SELECT payload FROM ingest_jobs WHERE state = 'done'`);
    const sources = path.join(dir, 'media', 'sources');
    copyFileSync(path.join(sources, demo.payload.source), path.join(sources, 'upload.mp4'));
    const [next] = await t.db.query(`SELECT id, video_id FROM ingest_jobs WHERE state = 'failed' ORDER BY id LIMIT 1`);
    await t.db.query(
      `UPDATE ingest_jobs SET state = 'queued', attempts = 0, payload = '{"source":"upload.mp4"}'::jsonb WHERE id = $1`,
      [next.id],
    );
    await t.app.get(JobRunner).drain();

    const [job] = await t.db.query('SELECT state, error FROM ingest_jobs WHERE id = $1', [next.id]);
    expect(job).toEqual({ state: 'done', error: null });
    const video = (await request(t.http).get(`/api/videos/${next.video_id}`).expect(200)).body;
    expect(video.duration).toBe(3);
    expect(await variants(video)).toEqual(['240p.m3u8', '360p.m3u8', '480p.m3u8']);
  }, 120_000);

  it('makes as many as DEMO_SEED_VIDEOS asks for', async () => {
    const few = await createTestApp({ MEDIA_DIR: path.join(dir, 'media-few'), INGEST_WORKER: 'false', DEMO_SEED_VIDEOS: '3' });
    try {
      expect(await few.app.get(DemoSeedService).seed()).toHaveLength(3);
      const [{ n }] = await few.db.query(`SELECT count(*)::int AS n FROM videos WHERE status = 'processing'`);
      expect(n).toBe(3);
    } finally {
      await few.close();
    }
  });
});
