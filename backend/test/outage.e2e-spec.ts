import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CountersService } from '../src/videos/counters/counters.service';
import { insertVideo, guestFrom } from './helpers/factories';
import { TcpProxy } from './helpers/tcp-proxy';
import { until } from './helpers/until';
import { bearer, createTestApp, registerAdmin, onPostgresServer, registerUser, TestApp, TestUser } from './helpers/test-app';

/**
 * Real outages: a TCP proxy sits between the app and PostgreSQL (or Redis) and is cut for a while, as a
 * network partition or a restarting server would. Reads that memory can serve keep answering (marked stale),
 * the rest answer 503 with Retry-After, never 500, and every view, guest like and trending signal counted
 * meanwhile reaches the database once it is back.
 */

/** A distinct guest per user agent (the viewer is the address and the user agent). */
const guest = (n: number) => guestFrom(`outage-guest-${n}-${randomUUID()}`);

const expect503 = (res: request.Response) => {
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: expect.stringMatching(/unavailable/i), statusCode: 503 });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
};

async function storedCounts(t: TestApp, id: number) {
  const [row] = await t.db.query<{ views: number; likes: number }[]>('SELECT views, likes FROM videos WHERE id = $1', [id]);
  // The per-day stats count trending signals (as `views`, what the trending ranking weighs) and likes.
  const [stats] = await t.db.query<{ trending: number; likes: number }[]>(
    'SELECT COALESCE(SUM(views), 0)::int AS trending, COALESCE(SUM(likes), 0)::int AS likes FROM video_daily_stats WHERE video_id = $1',
    [id],
  );
  return { views: Number(row.views), likes: Number(row.likes), trending: Number(stats.trending), dailyLikes: Number(stats.likes) };
}

// Everywhere, PGlite included: the database goes away under the running API (closed, as when it fails).
describe('the database gone under the running API (e2e)', () => {
  let t: TestApp;
  let videoId: number;
  let other: number;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    videoId = await insertVideo(t.db, { title: 'Still Here', views: 4 });
    other = await insertVideo(t.db, { title: 'Never Read' });
  });
  afterAll(() => t.close());

  it('serves what it answered before, stale; 503 with Retry-After for the rest; keeps counting views', async () => {
    const detail = (await request(t.http).get(`/api/videos/${videoId}`).expect(200)).body;
    await request(t.http).get('/api/videos?sort=most-viewed').expect(200);
    await request(t.http).post('/api/video/increment-views').set(guest(0)).send({ videoId }).expect(200);

    await t.db.destroy();

    // What the catalogue cache holds is answered from memory, current: the buffered view included.
    const fromMemory = await request(t.http).get(`/api/videos/${videoId}`).expect(200);
    expect(fromMemory.headers['x-stale']).toBeUndefined();
    expect(fromMemory.body).toEqual({ ...detail, views: detail.views + 1 });
    expect((await request(t.http).get('/api/videos?sort=most-viewed').expect(200)).headers['x-stale']).toBeUndefined();

    // Once memory has let them go (as when the bus missed changes), the last good answers, marked stale.
    t.clearCaches('missed');
    const stale = await request(t.http).get(`/api/videos/${videoId}`).expect(200);
    expect(stale.headers['x-stale']).toBe('database-unavailable');
    expect(stale.headers['cache-control']).toBe('no-store');
    // The answer kept last: the one before the cut, or the one from memory (kept answers refresh every 2 s).
    expect([detail, fromMemory.body]).toContainEqual(stale.body);
    expect((await request(t.http).get('/api/videos?sort=most-viewed').expect(200)).headers['x-stale']).toBe('database-unavailable');
    expect503(await request(t.http).get(`/api/videos/${other}`));
    expect503(await request(t.http).get('/api/videos?sort=longest'));
    expect503(await request(t.http).post('/api/auth/register').send({ email: 'late@example.com', password: 'correct horse battery', displayName: 'Late' }));
    const views = await request(t.http).post('/api/video/increment-views').set(guest(1)).send({ videoId }).expect(200);
    expect(views.body.views).toBe(6);
    expect((await t.app.get(CountersService).pending([videoId])).get(videoId)).toEqual({ views: 2, likes: 0 });
    const health = await request(t.http).get('/api/health').expect(503);
    expect(health.body).toEqual({ error: expect.any(String), errorCode: 'DATABASE_DOWN', statusCode: 503 });
  });
});

// Registered only where the server is (the embedded database has no connection to cut; no skipped test).
if (onPostgresServer()) {
  describe('PostgreSQL outage behind a real TCP proxy (e2e)', () => {
    let t: TestApp;
    let proxy: TcpProxy;
    let member: TestUser;
    let admin: TestUser;
    let videoId: number;
    let other: number;
    let stranger: number;

    beforeAll(async () => {
      proxy = await TcpProxy.to(process.env.TEST_DATABASE_URL as string);
      t = await createTestApp({ TRUST_PROXY: 'loopback' }, {}, (url) => proxy.url(url));
      member = await registerUser(t.http);
      admin = await registerAdmin(t);
      videoId = await insertVideo(t.db, { title: 'Outage Survivor', views: 10, likes: 2, categories: ['Outdoor'] });
      other = await insertVideo(t.db, { title: 'Outage Neighbour', categories: ['Outdoor'] });
      await t.db.query(`INSERT INTO performers (id, name) VALUES ('outage-star', 'Outage Star') ON CONFLICT DO NOTHING`);
    });
    afterAll(async () => {
      await proxy?.restore();
      await t?.close();
      await proxy?.close();
    });

    it('serves warm reads stale, answers 503 for the rest, keeps every count, and recovers by itself', async () => {
      // Warm what a visitor would have just read.
      const detail = (await request(t.http).get(`/api/videos/${videoId}`).expect(200)).body;
      const listing = (await request(t.http).get('/api/videos?sort=newest').expect(200)).body;
      const related = (await request(t.http).get(`/api/videos/${videoId}/related`).expect(200)).body;
      const categories = (await request(t.http).get('/api/categories').expect(200)).body;
      await request(t.http).get('/api/video/secure').query({ path: detail.stream_path }).expect(200);
      // One view buffered before the cut (inserted with 10 views and 2 likes).
      expect((await request(t.http).post('/api/video/increment-views').set(guest(0)).send({ videoId }).expect(200)).body.views).toBe(11);
      // Published after every read above: nothing in this process has seen it.
      stranger = await insertVideo(t.db, { title: 'Outage Stranger' });

      await proxy.cut();

      // Reads the catalogue cache holds: from memory, current (the view buffered before the cut included).
      const ids = (body: { data: { id: number }[] }) => body.data.map((v) => v.id);
      const fromMemory = await request(t.http).get(`/api/videos/${videoId}`).expect(200);
      expect(fromMemory.headers['x-stale']).toBeUndefined();
      expect(fromMemory.body).toEqual({ ...detail, views: 11 });
      const listingFromMemory = await request(t.http).get('/api/videos?sort=newest').expect(200);
      expect(listingFromMemory.headers['x-stale']).toBeUndefined();
      expect(ids(listingFromMemory.body)).toEqual(ids(listing));
      expect(ids((await request(t.http).get(`/api/videos/${videoId}/related`).expect(200)).body)).toEqual(ids(related));
      expect((await request(t.http).get('/api/categories').expect(200)).body).toEqual(categories);
      // A signed-in reader this process has not identified yet reads like a guest.
      await request(t.http).get(`/api/videos/${videoId}`).set(bearer(member)).expect(200);

      // Once memory has let them go: the last good answer, marked stale.
      t.clearCaches('missed');
      const staleDetail = await request(t.http).get(`/api/videos/${videoId}`).expect(200);
      expect(staleDetail.headers['x-stale']).toBe('database-unavailable');
      expect(staleDetail.body).toMatchObject({ id: detail.id, title: 'Outage Survivor', slug: detail.slug });
      const staleListing = await request(t.http).get('/api/videos?sort=newest').expect(200);
      expect(staleListing.headers['x-stale']).toBe('database-unavailable');
      expect([listing, listingFromMemory.body]).toContainEqual(staleListing.body);
      const asMember = await request(t.http).get(`/api/videos/${videoId}`).set(bearer(member)).expect(200);
      expect(asMember.headers['x-stale']).toBe('database-unavailable');
      // Playback goes on: a stream signed before is signed again, with a fresh expiry.
      const signed = await request(t.http).get('/api/video/secure').query({ path: detail.stream_path }).expect(200);
      expect(signed.body.secureUrl).toMatch(/^\/s\//);

      // Reads nothing in memory can answer, and writes: 503 with Retry-After, in the contract's shape.
      expect503(await request(t.http).get('/api/videos?sort=longest&page=3'));
      expect503(await request(t.http).get(`/api/videos/${other}`));
      const otherPath = detail.stream_path.replace(detail.slug, `never-signed-${other}`);
      expect503(await request(t.http).get('/api/video/secure').query({ path: otherPath }));
      expect503(await request(t.http).post('/api/auth/login').send({ email: member.email, password: 'correct horse battery' }));
      expect503(await request(t.http).post('/api/video/add-to-bookmarks').set(bearer(member)).send({ videoId, userId: member.id, action: 'create' }));
      expect503(await request(t.http).get('/api/me/bookmarks').set(bearer(member)));
      // A member's like taken back and their follows are rows too: refused, nothing half-done.
      expect503(await request(t.http).post('/api/video/remove-like').set(bearer(member)).send({ videoId }));
      expect503(await request(t.http).put('/api/me/following/outage-star').set(bearer(member)).send({}));
      expect503(await request(t.http).delete('/api/me/following/outage-star').set(bearer(member)));
      expect503(await request(t.http).get('/api/me/following').set(bearer(member)));
      expect503(await request(t.http).get('/api/me/followed-videos').set(bearer(member)));
      // Where a member stopped is a history row: refused, not pretended.
      expect503(await request(t.http).put(`/api/me/history/${videoId}/position`).set(bearer(member)).send({ position: 30 }));
      expect503(await request(t.http).get('/api/me/continue-watching').set(bearer(member)));
      // The account's export and deletion, and an admin's statistics, need the database: refused, nothing half-done.
      expect503(await request(t.http).get('/api/me/export').set(bearer(member)));
      expect503(await request(t.http).delete('/api/me/account').set(bearer(member)).send({ password: 'correct horse battery' }));
      expect503(await request(t.http).get(`/api/admin/videos/${videoId}/stats`).set(bearer(admin)));
      expect503(await request(t.http).get('/api/admin/dashboard').set(bearer(admin)));
      // Health tells "down" (503) apart from "degraded" (200).
      const health = await request(t.http).get('/api/health').expect(503);
      expect(health.body).toEqual({ error: expect.any(String), errorCode: 'DATABASE_DOWN', statusCode: 503 });

      // Counted events are buffered: views from five new guests, a guest's like, trending signals.
      let views = 0;
      for (let n = 1; n <= 5; n++) {
        const res = await request(t.http).post('/api/video/increment-views').set(guest(n)).send({ videoId }).expect(200);
        expect(res.body.views).toBeGreaterThan(views);
        views = res.body.views;
      }
      expect(views).toBe(16); // the one buffered before the cut, and these five
      const like = await request(t.http).post('/api/video/increment-likes').set(guest(1)).send({ videoId }).expect(200);
      expect(like.body.likes).toBe(3);
      for (let n = 1; n <= 3; n++) await request(t.http).post('/api/video/add-trending').set(guest(n)).send({ videoId }).expect(204);
      // A member's like is a row of its own: it cannot wait in the buffer, so it is refused, not lost.
      expect503(await request(t.http).post('/api/video/increment-likes').set(bearer(member)).send({ videoId }));
      // A flush during the outage fails and keeps the counts.
      await expect(t.app.get(CountersService).flush()).rejects.toThrow();
      // A video this process never read is not counted on faith (one it read as a related card is known).
      expect503(await request(t.http).post('/api/video/increment-views').set(guest(9)).send({ videoId: stranger }));
      await request(t.http).post('/api/video/increment-views').set(guest(9)).send({ videoId: other }).expect(200);

      await proxy.restore();
      await until('the API to answer again', async () => (await request(t.http).get('/api/health')).status === 200);
      expect((await request(t.http).get('/api/health')).body).toMatchObject({ status: 'ok' });
      const fresh = await request(t.http).get(`/api/videos/${videoId}`).expect(200);
      expect(fresh.headers['x-stale']).toBeUndefined();
      expect(fresh.body).toMatchObject({ views: 16, likes: 3 });

      await t.app.get(CountersService).flush();
      const after = await storedCounts(t, videoId);
      expect(after).toEqual({ views: 16, likes: 3, trending: 3, dailyLikes: 1 });
      // And writes work again.
      await request(t.http).post('/api/video/add-to-bookmarks').set(bearer(member)).send({ videoId, userId: member.id, action: 'create' }).expect(200);
      await request(t.http).put('/api/me/following/outage-star').set(bearer(member)).send({}).expect(200);
      expect((await request(t.http).get('/api/me/following').set(bearer(member)).expect(200)).body.data.map((p: { id: string }) => p.id)).toEqual(['outage-star']);
      // The account is still there, whole.
      expect((await request(t.http).get('/api/me/export').set(bearer(member)).expect(200)).body.account.id).toBe(member.id);
      await request(t.http).get(`/api/admin/videos/${videoId}/stats`).set(bearer(admin)).expect(200);
      expect((await request(t.http).get('/api/admin/dashboard?days=7').set(bearer(admin)).expect(200)).body.daily).toHaveLength(7);
      await request(t.http).put(`/api/me/history/${videoId}/position`).set(bearer(member)).send({ position: 30 }).expect(200);
      expect((await request(t.http).get('/api/me/continue-watching').set(bearer(member)).expect(200)).body.data).toEqual([
        expect.objectContaining({ id: videoId, position_seconds: 30 }),
      ]);
    });
  });
}

// Registered only where Redis is.
if (process.env.TEST_REDIS_URL) {
  describe('Redis outage behind a real TCP proxy (e2e)', () => {
    let t: TestApp;
    let proxy: TcpProxy;
    let member: TestUser;
    let videoId: number;
    const prefix = `outage-${randomUUID().slice(0, 8)}:`;

    beforeAll(async () => {
      proxy = await TcpProxy.to(process.env.TEST_REDIS_URL as string);
      t = await createTestApp({
        TRUST_PROXY: 'loopback',
        REDIS_URL: proxy.url(process.env.TEST_REDIS_URL as string),
        REDIS_PREFIX: prefix,
        RATE_LIMIT_WRITE: '1000',
        RATE_LIMIT_AUTH: '1000',
      });
      member = await registerUser(t.http);
      videoId = await insertVideo(t.db, { title: 'Cache Outage', views: 100, likes: 5 });
    });
    afterAll(async () => {
      await proxy?.restore();
      await t?.close();
      await proxy?.close();
    });

    it('falls back to the process for counts, caches and rate limits, then merges back without losing a count', async () => {
      await request(t.http).get('/api/categories').expect(200);
      // Three views buffered in Redis before the cut.
      for (let n = 0; n < 3; n++) await request(t.http).post('/api/video/increment-views').set(guest(n)).send({ videoId }).expect(200);

      await proxy.cut();

      // Everything keeps answering: reads go to the database, rate limits count in the process.
      await request(t.http).get(`/api/videos/${videoId}`).expect(200);
      await request(t.http).get('/api/categories').expect(200);
      await request(t.http).post('/api/video/add-to-bookmarks').set(bearer(member)).send({ videoId, userId: member.id, action: 'create' }).expect(200);
      for (let n = 3; n < 8; n++) await request(t.http).post('/api/video/increment-views').set(guest(n)).send({ videoId }).expect(200);
      await request(t.http).post('/api/video/increment-likes').set(guest(3)).send({ videoId }).expect(200);
      await request(t.http).post('/api/video/add-trending').set(guest(3)).send({ videoId }).expect(204);
      const health = await request(t.http).get('/api/health').expect(200);
      expect(health.body).toMatchObject({ status: 'degraded' });

      // The views counted in the process are written by its own flush, without Redis.
      await t.app.get(CountersService).flush();
      expect(await storedCounts(t, videoId)).toMatchObject({ views: 105, likes: 6, trending: 1 });

      await proxy.restore();
      await until('Redis to be back', async () => (await request(t.http).get('/api/health')).body.status === 'ok');
      // The three that waited in Redis are written too.
      await t.app.get(CountersService).flush();
      expect(await storedCounts(t, videoId)).toMatchObject({ views: 108, likes: 6, trending: 1, dailyLikes: 1 });
      expect((await request(t.http).get(`/api/videos/${videoId}`).expect(200)).body).toMatchObject({ views: 108, likes: 6 });
    });
  });
}
