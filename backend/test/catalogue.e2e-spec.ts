import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { insertDailyViews, insertVideo } from './helpers/factories';
import { TrendingService } from '../src/videos/trending.service';
import { VideosRepository } from '../src/videos/videos.repository';
import { createTestApp, TestApp } from './helpers/test-app';

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);
const ids = (body: { data: { id: number }[] }) => body.data.map((v) => v.id);

describe('Catalogue (e2e)', () => {
  let t: TestApp;
  const v: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ SITE_NAME: 'Test Tube', BRAND: 'atg', IMAGE_HOST: 'https://img.example.com', MEDIA_HOSTS: '1=https://m1.example.com,2=https://m2.example.com,default=https://m0.example.com' });
    // A small catalogue whose every ordering is known.
    v.pool = await insertVideo(t.db, {
      title: 'Pool Party Workout', atg_title: 'Exclusive: Poolside', views: 500, likes: 50, duration: 600,
      upload_date: day('2024-05-01'), categories: ['Pool Party', 'Jocks'], performers: ['Marco Steel'], featured: 2,
    });
    v.gym = await insertVideo(t.db, {
      title: 'Gym Session', views: 900, likes: 50, duration: null, upload_date: day('2024-06-01'),
      categories: ['Jocks'], performers: ['Marco Steel', 'Dante Cruz'],
    });
    v.beach = await insertVideo(t.db, {
      title: 'Beach Day', jtg_title: 'Sunny Sands', views: 100, likes: 90, duration: 3600, upload_date: day('2024-07-01'),
      categories: ['Beach'], performers: ['Dante Cruz'], media_ready: true, url: '/2024/07/beach-day.mp4', thumbnail: '/thumbs/2024/07/beach-day/poster.jpg',
    });
    v.loner = await insertVideo(t.db, {
      title: 'Solo Cabin Weekend', views: 900, likes: 10, duration: 60, upload_date: day('2024-06-01'),
    });
    v.hidden = await insertVideo(t.db, { title: 'Still Processing Pool', status: 'processing', categories: ['Jocks'], views: 10_000 });
    await insertDailyViews(t.db, v.loner, 8, 10_000); // outside the 7-day window: counts for nothing
    await insertDailyViews(t.db, v.pool, 6, 100); // 100 × 0.8^6 ≈ 26.2
    await insertDailyViews(t.db, v.beach, 0, 30); // 30
    await insertDailyViews(t.db, v.gym, 1, 20); // 20 × 0.8 = 16
    await insertDailyViews(t.db, v.gym, 2, 20); // + 12.8 = 28.8
    await t.app.get(TrendingService).recompute();
  });
  afterAll(() => t.close());

  describe('GET /api/videos', () => {
    it('lists published video cards, newest first by default, with the contract fields', async () => {
      const res = await request(t.http).get('/api/videos').expect(200);
      expect(res.body).toMatchObject({ page: 1, limit: 24, total: 4 });
      expect(ids(res.body)).toEqual([v.beach, v.loner, v.gym, v.pool]);
      const beach = res.body.data[0];
      expect(Object.keys(beach).sort()).toEqual(
        ['atg_title', 'cdn', 'duration', 'featured', 'id', 'jtg_title', 'likes', 'preview', 'slug', 'thumbnail', 'title', 'upload_date', 'url', 'views'].sort(),
      );
      expect(beach).toMatchObject({
        id: v.beach, title: 'Beach Day', jtg_title: 'Sunny Sands', views: 100, likes: 90, duration: 3600, cdn: 1,
        upload_date: '2024-07-01T12:00:00.000Z', url: '/2024/07/beach-day.mp4',
        thumbnail: '/thumbs/2024/07/beach-day/poster.jpg',
        preview: 'https://img.example.com/thumbs/2024/07/beach-day/preview.mp4',
      });
      expect(res.body.data.find((c: { id: number }) => c.id === v.gym).preview).toBeNull();
    });

    it.each([
      ['newest', () => [v.beach, v.loner, v.gym, v.pool]],
      ['most-viewed', () => [v.loner, v.gym, v.pool, v.beach]],
      ['top-rated', () => [v.beach, v.gym, v.pool, v.loner]],
      ['longest', () => [v.beach, v.pool, v.loner, v.gym]],
      ['trending', () => [v.beach, v.gym, v.pool, v.loner]],
    ])('sorts by %s (ties by id, newest first; unknown durations last)', async (sort, expected) => {
      const res = await request(t.http).get(`/api/videos?sort=${sort}`).expect(200);
      expect(ids(res.body)).toEqual(expected());
    });

    it('breaks ties by id, newest first', async () => {
      // loner and gym share an upload date and their view counts.
      const res = await request(t.http).get('/api/videos?sort=most-viewed&limit=2').expect(200);
      expect(ids(res.body)).toEqual([Math.max(v.loner, v.gym), Math.min(v.loner, v.gym)]);
    });

    it('filters by category, performer and featured', async () => {
      expect(ids((await request(t.http).get('/api/videos?category=jocks').expect(200)).body)).toEqual([v.gym, v.pool]);
      expect(ids((await request(t.http).get('/api/videos?performer=dante-cruz').expect(200)).body)).toEqual([v.beach, v.gym]);
      expect(ids((await request(t.http).get('/api/videos?category=jocks&performer=dante-cruz').expect(200)).body)).toEqual([v.gym]);
      expect(ids((await request(t.http).get('/api/videos?featured=true').expect(200)).body)).toEqual([v.pool]);
      expect((await request(t.http).get('/api/videos?featured=false').expect(200)).body.total).toBe(3);
      const none = await request(t.http).get('/api/videos?category=no-such-category').expect(200);
      expect(none.body).toEqual({ data: [], page: 1, limit: 24, total: 0 });
    });

    it('searches the three titles in full text, by word prefixes', async () => {
      expect(ids((await request(t.http).get('/api/videos?q=pool').expect(200)).body)).toEqual([v.pool]);
      expect(ids((await request(t.http).get('/api/videos?q=poolsi').expect(200)).body)).toEqual([v.pool]); // atg_title
      expect(ids((await request(t.http).get('/api/videos?q=SUNNY%20sand').expect(200)).body)).toEqual([v.beach]); // jtg_title
      expect(ids((await request(t.http).get('/api/videos?q=workouts').expect(200)).body)).toEqual([v.pool]); // stemmed
      expect((await request(t.http).get('/api/videos?q=zebra').expect(200)).body.total).toBe(0);
      expect((await request(t.http).get(`/api/videos?q=${encodeURIComponent("pool & !|<-> ':*")}`).expect(200)).body.total).toBe(1);
    });

    it('pages with page, limit and total', async () => {
      const first = await request(t.http).get('/api/videos?limit=3&page=1').expect(200);
      const second = await request(t.http).get('/api/videos?limit=3&page=2').expect(200);
      expect(first.body).toMatchObject({ page: 1, limit: 3, total: 4 });
      expect(ids(first.body)).toEqual([v.beach, v.loner, v.gym]);
      expect(ids(second.body)).toEqual([v.pool]);
      const beyond = await request(t.http).get('/api/videos?limit=3&page=9').expect(200);
      expect(beyond.body).toEqual({ data: [], page: 9, limit: 3, total: 4 });
    });

    it.each([
      ['sort=random', /sort must be one of: newest, most-viewed, top-rated, trending, longest/],
      ['page=0', /page must not be less than 1/],
      ['page=-1', /page/],
      ['page=1.5', /page must be a whole number/],
      ['page=10001', /page must not be greater than 10000/],
      ['limit=0', /limit must not be less than 1/],
      ['limit=61', /limit must not be greater than 60/],
      ['limit=abc', /limit must be a whole number/],
      ['featured=maybe', /featured must be true or false/],
      ['sort=newest&sort=longest', /sort must be one of/],
      ['q=' + 'x'.repeat(201), /q must be shorter than or equal to 200 characters/],
      ['color=red', /property color should not exist/],
    ])('answers 400 in the error shape for %s', async (query, message) => {
      const res = await request(t.http).get(`/api/videos?${query}`).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
    });
  });

  describe('GET /api/videos/{id}', () => {
    it('answers the whole video with taxonomy, stream path and media URLs', async () => {
      const res = await request(t.http).get(`/api/videos/${v.beach}`).expect(200);
      expect(res.body).toMatchObject({
        id: v.beach,
        title: 'Beach Day',
        categories: [{ id: 'beach', name: 'Beach' }],
        performers: [{ id: 'dante-cruz', name: 'Dante Cruz' }],
        stream_path: '/videos/2024/07/beach-day/index.m3u8',
        poster: 'https://img.example.com/thumbs/2024/07/beach-day/poster.jpg',
        storyboard: 'https://img.example.com/thumbs/2024/07/beach-day/storyboard.vtt',
        preview: 'https://img.example.com/thumbs/2024/07/beach-day/preview.mp4',
      });
    });

    it('lists taxonomy by name and falls back to the thumbnail as poster before media exists', async () => {
      const res = await request(t.http).get(`/api/videos/${v.gym}`).expect(200);
      expect(res.body.performers).toEqual([{ id: 'dante-cruz', name: 'Dante Cruz' }, { id: 'marco-steel', name: 'Marco Steel' }]);
      expect(res.body).toMatchObject({ duration: null, poster: null, storyboard: null, preview: null });
    });

    it('answers 404 "Video not found" for an unknown or unpublished video', async () => {
      for (const id of [999_999, v.hidden]) {
        const res = await request(t.http).get(`/api/videos/${id}`).expect(404);
        expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
      }
    });

    it.each(['abc', '0', '-3', '1.5', '99999999999', '1e3'])('answers 400 for the id %j', async (id) => {
      const res = await request(t.http).get(`/api/videos/${id}`).expect(400);
      expect(res.body).toEqual({ error: 'id must be a positive integer', statusCode: 400 });
    });
  });

  describe('GET /api/videos/{id}/related', () => {
    it('ranks by shared performers, then shared categories, then views, never the video itself', async () => {
      // pool shares performer Marco and category Jocks with gym; nothing with beach but nothing at all with loner.
      const pool = await request(t.http).get(`/api/videos/${v.pool}/related`).expect(200);
      expect(pool.body).toEqual({ related: true, data: [expect.objectContaining({ id: v.gym })] });

      // gym shares Marco + Jocks with pool (1 performer, 1 category) and Dante with beach (1 performer).
      const gym = await request(t.http).get(`/api/videos/${v.gym}/related`).expect(200);
      expect(gym.body.related).toBe(true);
      expect(ids(gym.body)).toEqual([v.pool, v.beach]);
    });

    it('puts more shared performers ahead of more shared categories and views', async () => {
      const a = await insertVideo(t.db, { title: 'Anchor', performers: ['P One', 'P Two'], categories: ['C One', 'C Two'] });
      const twoPerformers = await insertVideo(t.db, { title: 'Two Performers', performers: ['P One', 'P Two'], views: 1 });
      const onePerformerTwoCats = await insertVideo(t.db, { title: 'One Performer', performers: ['P One'], categories: ['C One', 'C Two'], views: 5 });
      const twoCats = await insertVideo(t.db, { title: 'Two Categories', categories: ['C One', 'C Two'], views: 1_000_000 });
      const oneCatPopular = await insertVideo(t.db, { title: 'One Category Popular', categories: ['C One'], views: 2_000_000 });
      const oneCatQuiet = await insertVideo(t.db, { title: 'One Category Quiet', categories: ['C Two'], views: 3 });
      await t.clearCaches();
      const res = await request(t.http).get(`/api/videos/${a}/related`).expect(200);
      expect(res.body.related).toBe(true);
      expect(ids(res.body)).toEqual([twoPerformers, onePerformerTwoCats, twoCats, oneCatPopular, oneCatQuiet]);
      await t.db.query('DELETE FROM videos WHERE id = ANY($1)', [[a, twoPerformers, onePerformerTwoCats, twoCats, oneCatPopular, oneCatQuiet]]);
    });

    it('falls back to at most 6 hot videos in trending order, without the video itself, when nothing is related', async () => {
      const extra = [];
      for (let i = 0; i < 6; i++) extra.push(await insertVideo(t.db, { title: `Filler ${i}` }));
      await t.clearCaches();
      const res = await request(t.http).get(`/api/videos/${v.loner}/related`).expect(200);
      expect(res.body.related).toBe(false);
      expect(res.body.data).toHaveLength(6);
      expect(ids(res.body)).not.toContain(v.loner);
      expect(ids(res.body).slice(0, 3)).toEqual([v.beach, v.gym, v.pool]);
      await t.db.query('DELETE FROM videos WHERE id = ANY($1)', [extra]);
    });

    it('caps related videos at 24', async () => {
      const anchor = await insertVideo(t.db, { title: 'Crowded', categories: ['Crowd'] });
      const others = [];
      for (let i = 0; i < 30; i++) others.push(await insertVideo(t.db, { title: `Crowd ${i}`, categories: ['Crowd'], views: i }));
      await t.clearCaches();
      const res = await request(t.http).get(`/api/videos/${anchor}/related`).expect(200);
      expect(res.body.data).toHaveLength(24);
      expect(res.body.data[0].id).toBe(others[29]);
      await t.db.query('DELETE FROM videos WHERE id = ANY($1)', [[anchor, ...others]]);
    });

    it('reuses a ranking but always shows the cards as they are now, dropping videos that are gone', async () => {
      const first = await request(t.http).get(`/api/videos/${v.gym}/related`).expect(200);
      expect(ids(first.body)).toEqual([v.pool, v.beach]);
      const repository = t.app.get(VideosRepository);
      // A counter flush writes 7 views; beach leaves the catalogue (its ingest marked it failed).
      const flushed = [{ videoId: v.pool, views: 7, likes: 0, trending: 0 }];
      await repository.applyCounts(flushed, `test:${randomUUID()}`);
      repository.countsApplied(flushed);
      await t.db.query(`UPDATE videos SET status = 'processing' WHERE id = $1`, [v.beach]);
      await repository.markFailed(v.beach);
      const again = await request(t.http).get(`/api/videos/${v.gym}/related`).expect(200);
      expect(ids(again.body)).toEqual([v.pool]);
      expect(again.body.data[0].views).toBe(first.body.data[0].views + 7);
      await t.db.query(`UPDATE videos SET views = views - 7 WHERE id = $1`, [v.pool]);
      await t.db.query(`UPDATE videos SET status = 'ready' WHERE id = $1`, [v.beach]);
      await t.clearCaches();
    });

    it('answers 404 for an unknown video and 400 for a bad id', async () => {
      await request(t.http).get('/api/videos/424242/related').expect(404);
      await request(t.http).get('/api/videos/x/related').expect(400);
    });
  });

  describe('trending', () => {
    it('materializes each score once: a second recompute changes nothing', async () => {
      const trending = t.app.get(TrendingService);
      expect(await trending.recompute()).toBe(0);
      await insertDailyViews(t.db, v.loner, 0, 1);
      expect(await trending.recompute()).toBe(1);
      const [{ score }] = await t.db.query('SELECT trending_score AS score FROM videos WHERE id = $1', [v.loner]);
      expect(score).toBeCloseTo(1);
      await t.db.query('DELETE FROM video_daily_stats WHERE video_id = $1 AND day = CURRENT_DATE', [v.loner]);
      expect(await trending.recompute()).toBe(1);
    });

    it('weights each day 0.8 per day of age over the last 7 days', async () => {
      const [row] = await t.db.query('SELECT trending_score AS score FROM videos WHERE id = $1', [v.gym]);
      expect(row.score).toBeCloseTo(20 * 0.8 + 20 * 0.64, 6);
      const [pool] = await t.db.query('SELECT trending_score AS score FROM videos WHERE id = $1', [v.pool]);
      expect(pool.score).toBeCloseTo(100 * 0.8 ** 6, 6);
    });
  });

  describe('taxonomy', () => {
    // The fixtures above were written behind the API's back.
    beforeAll(() => t.clearCaches());

    it('GET /api/categories lists every category with its published video count, by name', async () => {
      const res = await request(t.http).get('/api/categories').expect(200);
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          { id: 'beach', name: 'Beach', video_count: 1 },
          { id: 'jocks', name: 'Jocks', video_count: 2 }, // the processing video is not counted
          { id: 'pool-party', name: 'Pool Party', video_count: 1 },
        ]),
      );
      const names = res.body.data.map((c: { name: string }) => c.name.toLowerCase());
      expect(names).toEqual([...names].sort());
    });

    it('GET /api/performers lists performers with counts', async () => {
      const res = await request(t.http).get('/api/performers').expect(200);
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          { id: 'dante-cruz', name: 'Dante Cruz', video_count: 2 },
          { id: 'marco-steel', name: 'Marco Steel', video_count: 2 },
        ]),
      );
    });
  });

  describe('site', () => {
    it('GET /api/site answers the name, brand and hosts from the settings', async () => {
      const res = await request(t.http).get('/api/site').expect(200);
      expect(res.body).toEqual({
        name: 'Test Tube',
        brand: 'atg',
        mediaHosts: { '1': 'https://m1.example.com', '2': 'https://m2.example.com', default: 'https://m0.example.com' },
        imageHost: 'https://img.example.com',
        // PUBLIC_URL's default outside production (the tests' PORT is the default too).
        origin: 'http://localhost:3000',
      });
    });

    it('GET /api/get-client-ip ignores X-Forwarded-For when no proxy is trusted', async () => {
      const res = await request(t.http).get('/api/get-client-ip').set('X-Forwarded-For', '203.0.113.9').expect(200);
      expect(res.body).toEqual({ ip: '127.0.0.1' });
    });

    it('GET /api/health answers 200 while the database answers', async () => {
      await request(t.http).get('/api/health').expect(200);
    });

    it('serves the OpenAPI document at /api/docs-json and the viewer at /api/docs', async () => {
      const doc = await request(t.http).get('/api/docs-json').expect(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/videos', '/api/videos/{id}', '/api/videos/{id}/related', '/api/auth/login']));
      const ui = await request(t.http).get('/api/docs').expect(200);
      expect(ui.text).toMatch(/swagger/i);
    });

    it('answers unknown API routes with 404 in the error shape', async () => {
      const res = await request(t.http).get('/api/no-such-thing').expect(404);
      expect(res.body).toEqual({ error: expect.any(String), statusCode: 404 });
    });
  });
});

describe('Proxy trust and health (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  it('GET /api/get-client-ip honours X-Forwarded-For from a trusted proxy', async () => {
    const res = await request(t.http).get('/api/get-client-ip').set('X-Forwarded-For', '198.51.100.7, 203.0.113.9').expect(200);
    expect(res.body).toEqual({ ip: '203.0.113.9' });
  });

  it('GET /api/health answers 503 once the database is gone', async () => {
    await t.db.destroy();
    const res = await request(t.http).get('/api/health').expect(503);
    expect(res.body.statusCode).toBe(503);
  });
});
