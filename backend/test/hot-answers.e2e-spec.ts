import { editPrecondition } from '@hunktube/shared';
import request from 'supertest';
import { TaxonomyService } from '../src/taxonomy/taxonomy.service';
import { CountersService } from '../src/videos/counters/counters.service';
import { VideosService } from '../src/videos/videos.service';
import { insertVideo, guestFrom } from './helpers/factories';
import { randomUUID } from 'node:crypto';
import { bearer, createServerDatabase, createTestApp, onPostgresServer, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

/**
 * Hot catalogue answers are served as the bytes the full pipeline last sent, before Nest's routing, and only
 * while they are exactly what it would answer now: any count, edit or clear-cache since makes the next read a
 * full one.
 */
describe('hot answers (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let videoId: number;
  /** How many catalogue reads reached the services (a hot answer reaches none). */
  let reads = 0;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    videoId = await insertVideo(t.db, { title: 'Hot Answer', categories: ['Hot Answers'], performers: ['Hot Star'], views: 40, likes: 4 });
    await insertVideo(t.db, { title: 'Hot Neighbour', categories: ['Hot Answers'], views: 7 });
    t.clearCaches();
    const videos = t.app.get(VideosService);
    const taxonomy = t.app.get(TaxonomyService);
    for (const [service, method] of [[videos, 'list'], [videos, 'findOne'], [videos, 'related'], [taxonomy, 'list']] as const) {
      const original = (service as unknown as Record<string, (...args: unknown[]) => unknown>)[method].bind(service);
      (service as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        reads++;
        return original(...args);
      };
    }
  });
  afterAll(() => t.close());

  const urls = () => [
    `/api/videos/${videoId}`,
    `/api/videos/${videoId}/related`,
    '/api/videos?sort=most-viewed&limit=10',
    '/api/videos?category=hot-answers',
    '/api/categories',
    '/api/performers',
  ];
  const view = (agent: string) => request(t.http).post('/api/video/increment-views').set(guestFrom(agent)).send({ videoId }).expect(200);
  const headersOf = (res: request.Response) => {
    const { date: _date, 'x-request-id': _id, ...rest } = res.headers;
    return rest;
  };

  it('answers a hot read with the very bytes and headers of the full answer, without reaching the services', async () => {
    for (const url of urls()) {
      const full = await request(t.http).get(url).expect(200);
      const before = reads;
      const hot = await request(t.http).get(url).expect(200);
      expect({ url, reads: reads - before }).toEqual({ url, reads: 0 });
      expect(hot.text).toBe(full.text);
      expect(headersOf(hot)).toEqual(headersOf(full));
      expect(hot.headers['cache-control']).toMatch(/^public, max-age=\d+, stale-while-revalidate=\d+$/);
      expect(hot.headers['content-security-policy']).toBeTruthy();
      expect(hot.headers['x-request-id']).toBeTruthy();
      // A revalidation of the hot answer: 304, no body, the same ETag; a member's token changes nothing.
      const revalidated = await request(t.http).get(url).set(bearer(member)).set('If-None-Match', full.headers.etag).expect(304);
      expect(revalidated.text).toBe('');
      expect(revalidated.headers.etag).toBe(full.headers.etag);
    }
  });

  it('answers a read after a counted view, like or flush with the exact counts, then serves that one hot', async () => {
    const detail = async () => (await request(t.http).get(`/api/videos/${videoId}`).expect(200)).body as { views: number; likes: number };
    const card = async () =>
      ((await request(t.http).get('/api/videos?sort=most-viewed&limit=10').expect(200)).body.data as { id: number; views: number; likes: number }[])
        .find((v) => v.id === videoId);
    const start = await detail();
    expect((await card())?.views).toBe(start.views);
    await view('hot-viewer-1');
    expect((await detail()).views).toBe(start.views + 1);
    expect((await card())?.views).toBe(start.views + 1);
    await request(t.http).post('/api/video/increment-likes').set(guestFrom('hot-liker')).send({ videoId }).expect(200);
    expect((await detail()).likes).toBe(start.likes + 1);
    expect((await card())?.likes).toBe(start.likes + 1);
    await t.app.get(CountersService).flush();
    expect(await detail()).toMatchObject({ views: start.views + 1, likes: start.likes + 1 });
    expect(await card()).toMatchObject({ views: start.views + 1, likes: start.likes + 1 });
    const before = reads;
    expect(await detail()).toMatchObject({ views: start.views + 1, likes: start.likes + 1 });
    expect(reads).toBe(before);
  });

  it('changes the ETag with the counts: a revalidation after a view gets the new body', async () => {
    const first = await request(t.http).get(`/api/videos/${videoId}`).expect(200);
    await request(t.http).get(`/api/videos/${videoId}`).set('If-None-Match', first.headers.etag).expect(304);
    await view('hot-viewer-2');
    const next = await request(t.http).get(`/api/videos/${videoId}`).set('If-None-Match', first.headers.etag).expect(200);
    expect(next.body.views).toBe(first.body.views + 1);
    expect(next.headers.etag).not.toBe(first.headers.etag);
  });

  it('shows an admin edit, a rename and a clear-cache on the very next read', async () => {
    const read = async (url: string) => (await request(t.http).get(url).expect(200)).body;
    for (const url of urls()) await read(url);
    const current = await read(`/api/videos/${videoId}`);
    await request(t.http)
      .post('/api/admin/update-video')
      .set(bearer(admin))
      .set('If-Match', editPrecondition(current as Parameters<typeof editPrecondition>[0]))
      .send({ ...current, title: 'Hot Answer, Edited' })
      .expect(200);
    expect((await read(`/api/videos/${videoId}`)).title).toBe('Hot Answer, Edited');
    expect((await read('/api/videos?category=hot-answers')).data.map((v: { title: string }) => v.title)).toContain('Hot Answer, Edited');

    await request(t.http).patch('/api/admin/categories/hot-answers').set(bearer(admin)).send({ name: 'Hot Answers Renamed' }).expect(200);
    expect((await read('/api/categories')).data.map((c: { name: string }) => c.name)).toContain('Hot Answers Renamed');
    expect((await read(`/api/videos/${videoId}`)).categories.map((c: { name: string }) => c.name)).toContain('Hot Answers Renamed');

    // Behind the API's back, then an admin's clear-cache: the next read is the database's.
    await t.db.query(`UPDATE videos SET title = 'Hot Answer, By Hand' WHERE id = $1`, [videoId]);
    expect((await read(`/api/videos/${videoId}`)).title).toBe('Hot Answer, Edited');
    await request(t.http).post('/api/admin/clear-cache').set(bearer(admin)).expect(200);
    expect((await read(`/api/videos/${videoId}`)).title).toBe('Hot Answer, By Hand');
  });

  it('never serves a refusal or another URL from a kept answer', async () => {
    await request(t.http).get('/api/videos?sort=newest').expect(200);
    await request(t.http).get('/api/videos?sort=newest').expect(200);
    const refused = await request(t.http).get('/api/videos?sort=newest&extra=1').expect(400);
    expect(refused.headers['cache-control']).toBe('private, no-store');
    await request(t.http).get('/api/videos/999999').expect(404);
    await request(t.http).get('/api/videos/999999').expect(404);
    const head = await request(t.http).head(`/api/videos/${videoId}`).expect(200);
    expect(head.text).toBeUndefined();
  });
});

if (process.env.TEST_REDIS_URL && onPostgresServer()) {
  describe('hot answers, two API processes on one database and one Redis (e2e)', () => {
    let a: TestApp;
    let b: TestApp;
    let shared: Awaited<ReturnType<typeof createServerDatabase>>;

    beforeAll(async () => {
      shared = await createServerDatabase(process.env.TEST_DATABASE_URL as string);
      const env = { REDIS_URL: process.env.TEST_REDIS_URL as string, REDIS_PREFIX: `hot-${randomUUID().slice(0, 8)}:`, DATABASE_URL: shared.databaseUrl };
      a = await createTestApp({ TRUST_PROXY: 'loopback', ...env });
      b = await createTestApp({ TRUST_PROXY: 'loopback', ...env });
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await shared?.dropDatabase();
    });

    it("shows a view counted by the other process on this one's very next hot read, exact", async () => {
      const id = await insertVideo(a.db, { title: 'Shared Hot', categories: ['Shared Hot'], views: 20 });
      a.videosChanged([id]);
      const detail = async () => (await request(a.http).get(`/api/videos/${id}`).expect(200)).body.views as number;
      const listed = async () =>
        ((await request(a.http).get('/api/videos?category=shared-hot').expect(200)).body.data as { id: number; views: number }[])[0].views;
      expect([await detail(), await detail(), await listed(), await listed()]).toEqual([20, 20, 20, 20]);
      for (let n = 1; n <= 3; n++) {
        await request(b.http).post('/api/video/increment-views').set(guestFrom(`shared-hot-${n}`)).send({ videoId: id }).expect(200);
        // The buffer is shared in Redis: no message needed, the next read in A has it.
        expect([await detail(), await listed()]).toEqual([20 + n, 20 + n]);
      }
      await b.app.get(CountersService).flush();
      const deadline = Date.now() + 1000;
      while (Date.now() < deadline && (await detail()) !== 23) await new Promise((r) => setTimeout(r, 10));
      expect([await detail(), await listed()]).toEqual([23, 23]);
    });
  });
}
