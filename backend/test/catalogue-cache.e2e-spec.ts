import { randomUUID } from 'node:crypto';
import { editPrecondition } from '@hunktube/shared';
import request from 'supertest';
import { AdminService } from '../src/admin/admin.service';
import { AdminVideosService } from '../src/admin/admin-videos.service';
import { InvalidationBus } from '../src/common/cache/invalidation-bus';
import { TaxonomyService } from '../src/taxonomy/taxonomy.service';
import { CountersService } from '../src/videos/counters/counters.service';
import { TrendingService } from '../src/videos/trending.service';
import { VideosRepository } from '../src/videos/videos.repository';
import { insertDailyViews, insertVideo, guestFrom } from './helpers/factories';
import { TcpProxy } from './helpers/tcp-proxy';
import { bearer, createServerDatabase, createTestApp, onPostgresServer, registerAdmin, TestApp, TestUser } from './helpers/test-app';

/**
 * The catalogue's in-memory caches: hot reads are answered without the database, and every write path makes
 * its change visible on the very next read; with REDIS_URL, in every other API process within a second.
 * Fixtures are inserted behind the API's back and announced as their publication would be.
 */
const guest = () => guestFrom(`cache-guest-${randomUUID()}`);
type Card = { id: number; title: string; views: number; likes: number };
const ids = (body: { data: { id: number }[] }) => body.data.map((v) => v.id);

/** Polls `read` until `check` holds, for at most `ms` (the one-second bound of the issue across processes). */
async function within<T>(ms: number, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('catalogue cache, one API process (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  const statements: string[] = [];
  const detail = async (id: number, status = 200) => (await request(t.http).get(`/api/videos/${id}`).expect(status)).body;
  const list = async (query: string) => (await request(t.http).get(`/api/videos?${query}`).expect(200)).body;
  /** A video inserted as an upload's publication would be: announced to the caches (a total may hold it). */
  const fixture = async (fields: Parameters<typeof insertVideo>[1]) => {
    const id = await insertVideo(t.db, fields);
    t.videosChanged([id]);
    return id;
  };

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    admin = await registerAdmin(t);
    // Counts every statement the API sends to the database (DataSource.query and managers' queries alike).
    const create = t.db.createQueryRunner.bind(t.db);
    t.db.createQueryRunner = (mode) => {
      const runner = create(mode);
      const query = runner.query.bind(runner);
      runner.query = ((...args: Parameters<typeof query>) => {
        // The job runner's polling is not the catalogue's.
        if (!/ingest_jobs|scheduled_tasks/.test(String(args[0]))) statements.push(String(args[0]).slice(0, 80));
        return query(...args);
      }) as typeof runner.query;
      return runner;
    };
  });
  afterAll(() => t.close());

  it('answers a hot detail, listing page, related list and taxonomy list without the database', async () => {
    const id = await fixture({ title: 'Hot Read', categories: ['Hot Cat'], performers: ['Hot Star'], views: 3 });
    await fixture({ title: 'Hot Neighbour', categories: ['Hot Cat'] });
    const reads = [`/api/videos/${id}`, '/api/videos?sort=newest', '/api/videos?category=hot-cat&sort=most-viewed', `/api/videos/${id}/related`, '/api/categories', '/api/performers'];
    const first = [];
    for (const url of reads) first.push((await request(t.http).get(url).expect(200)).body);
    statements.length = 0;
    for (const [i, url] of reads.entries()) expect((await request(t.http).get(url).expect(200)).body).toEqual(first[i]);
    expect(statements).toEqual([]);
  });

  it('counts views, likes and trending signals without the database, and the counts stay exact', async () => {
    const id = await fixture({ title: 'Counted', views: 10, likes: 1 });
    expect((await detail(id)).views).toBe(10);
    statements.length = 0;
    const views = await Promise.all(
      Array.from({ length: 50 }, () => request(t.http).post('/api/video/increment-views').set(guest()).send({ videoId: id }).expect(200)),
    );
    await request(t.http).post('/api/video/increment-likes').set(guest()).send({ videoId: id }).expect(200);
    await request(t.http).post('/api/video/add-trending').set(guest()).send({ videoId: id }).expect(204);
    expect(statements).toEqual([]);
    // Each answer counts its own view and at most the 49 others.
    for (const res of views) expect(res.body.views).toBeGreaterThanOrEqual(11);
    expect(Math.max(...views.map((r) => r.body.views))).toBe(60);
    expect(await detail(id)).toMatchObject({ views: 60, likes: 2 });
  });

  it('stays exact through flushes while views keep coming: reads never lose or repeat a count', async () => {
    const id = await fixture({ title: 'Flushed While Read', views: 100 });
    const counters = t.app.get(CountersService);
    let seen = 100;
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        ...Array.from({ length: 20 }, () => request(t.http).post('/api/video/increment-views').set(guest()).send({ videoId: id }).expect(200)),
        counters.flush(),
        ...Array.from({ length: 5 }, async () => {
          const views = (await detail(id)).views;
          expect(views).toBeGreaterThanOrEqual(seen);
          expect(views).toBeLessThanOrEqual(100 + (round + 1) * 20);
        }),
      ]);
      await counters.flush();
      seen = (await detail(id)).views;
      expect(seen).toBe(100 + (round + 1) * 20);
    }
    const [row] = await t.db.query('SELECT views FROM videos WHERE id = $1', [id]);
    expect(Number(row.views)).toBe(200);
    // And a listing card of it says the same.
    const page = await list('sort=most-viewed&limit=60');
    expect(page.data.find((c: Card) => c.id === id)?.views).toBe(200);
  });

  it("shows an admin's edit on the next read: detail, listings, search, category pages and related", async () => {
    const id = await fixture({ title: 'Zebra Edit', categories: ['Edit Old'], views: 5 });
    const buddy = await fixture({ title: 'Edit Buddy', categories: ['Edit New'] });
    const before = await detail(id);
    expect(ids(await list('q=zebra'))).toContain(id);
    expect(ids(await list('category=edit-old'))).toEqual([id]);
    expect((await request(t.http).get(`/api/videos/${id}/related`).expect(200)).body.related).toBe(false);

    await request(t.http).post('/api/admin/update-video').set(bearer(admin))
      .send({ id, title: 'Quokka Edit', categories: [{ id: 'edit-new' }] }).expect(200);

    expect(await detail(id)).toMatchObject({ title: 'Quokka Edit', views: before.views, categories: [{ id: 'edit-new', name: 'Edit New' }] });
    expect(ids(await list('q=zebra'))).not.toContain(id);
    expect(ids(await list('q=quokka'))).toContain(id);
    expect(ids(await list('category=edit-old'))).toEqual([]);
    expect(ids(await list('category=edit-new'))).toEqual([buddy, id].sort((a, b) => b - a));
    const related = (await request(t.http).get(`/api/videos/${id}/related`).expect(200)).body;
    expect(related).toMatchObject({ related: true, data: [{ id: buddy }] });
    const counts = (await request(t.http).get('/api/categories').expect(200)).body.data as { id: string; video_count: number }[];
    expect(counts.find((c) => c.id === 'edit-old')?.video_count ?? 0).toBe(0);
    expect(counts.find((c) => c.id === 'edit-new')?.video_count).toBe(2);
  });

  it("shows an admin's change of the counts, exact with what the counters buffer", async () => {
    const id = await fixture({ title: 'Count Edit', views: 50, likes: 5 });
    const before = await detail(id);
    await request(t.http).post('/api/video/increment-views').set(guest()).send({ videoId: id }).expect(200);
    await request(t.http).post('/api/admin/update-video').set(bearer(admin))
      .set('If-Match', editPrecondition(before as Parameters<typeof editPrecondition>[0]))
      .send({ ...before, views: 70 }).expect(200);
    // The admin moved the count from 50 to 70: the view counted meanwhile stays.
    expect((await detail(id)).views).toBe(71);
    expect((await list('sort=most-viewed&limit=60')).data.find((c: Card) => c.id === id)?.views).toBe(71);
  });

  it('drops a deleted video from its detail, listings and counters at once', async () => {
    const id = await fixture({ title: 'Soon Gone', categories: ['Gone Cat'] });
    await detail(id);
    expect(ids(await list('category=gone-cat'))).toEqual([id]);
    await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id }).expect(200);
    await detail(id, 404);
    expect(ids(await list('category=gone-cat'))).toEqual([]);
    expect((await list('category=gone-cat')).total).toBe(0);
    await request(t.http).post('/api/video/increment-views').set(guest()).send({ videoId: id }).expect(404);
  });

  it('shows a newly published video on the next read, and a failed one never', async () => {
    const repository = t.app.get(VideosRepository);
    const newVideo = (slug: string) =>
      t.db.transaction((tx) =>
        repository.createProcessing(
          { slug, url: `/2026/11/${slug}.mp4`, title: slug, atg_title: '', jtg_title: '', featured: 0, upload_date: new Date().toISOString(), categories: [], performers: [] },
          tx,
        ),
      );
    const fresh = await newVideo(`fresh-${randomUUID().slice(0, 6)}`);
    const total = (await list('sort=newest')).total;
    await detail(fresh, 404); // processing: not in the catalogue, and remembered as such
    await request(t.http).post('/api/video/increment-views').set(guest()).send({ videoId: fresh }).expect(404);

    await repository.publish(fresh, `2026/11/fresh`, { durationSeconds: 42.7, width: 640, height: 360 });
    expect(await detail(fresh)).toMatchObject({ id: fresh, duration: 42 });
    expect(ids(await list('sort=newest'))[0]).toBe(fresh);
    expect((await list('sort=newest')).total).toBe(total + 1);

    const failed = await newVideo(`failed-${randomUUID().slice(0, 6)}`);
    await detail(failed, 404);
    await repository.markFailed(failed);
    await detail(failed, 404);
  });

  it('shows a renamed or new category and performer on the next read', async () => {
    const id = await fixture({ title: 'Renamed Taxa', categories: ['Old Name'], performers: ['Old Star'] });
    await detail(id);
    await request(t.http).get('/api/categories').expect(200);
    await request(t.http).patch('/api/admin/categories/old-name').set(bearer(admin)).send({ name: 'New Name' }).expect(200);
    await request(t.http).patch('/api/admin/performers/old-star').set(bearer(admin)).send({ name: 'New Star' }).expect(200);
    expect(await detail(id)).toMatchObject({ categories: [{ id: 'old-name', name: 'New Name' }], performers: [{ id: 'old-star', name: 'New Star' }] });
    await request(t.http).post('/api/categories').set(bearer(admin)).send({ name: 'Brand New Cat' }).expect(201);
    const categories = (await request(t.http).get('/api/categories').expect(200)).body.data as { id: string; name: string }[];
    expect(categories).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'old-name', name: 'New Name' }), expect.objectContaining({ id: 'brand-new-cat' })]));
  });

  it("shows the player's measured duration, and re-orders most-viewed and trending after a flush and a recompute", async () => {
    const id = await fixture({ title: 'No Duration', duration: null, views: 0 });
    expect((await detail(id)).duration).toBeNull();
    await request(t.http).post('/api/video/update-duration').send({ videoId: id, videoDuration: 93.4 }).expect(200);
    expect((await detail(id)).duration).toBe(93);

    const top = ids(await list('sort=most-viewed&limit=1'))[0];
    const topViews = (await detail(top)).views;
    // What a counter flush does.
    const repository = t.app.get(VideosRepository);
    const flushed = [{ videoId: id, views: topViews + 1, likes: 0, trending: 0 }];
    await repository.applyCounts(flushed, `test:${randomUUID()}`);
    repository.countsApplied(flushed);
    expect(ids(await list('sort=most-viewed&limit=1'))).toEqual([id]);

    expect(ids(await list('sort=trending&limit=1'))).not.toEqual([id]);
    await insertDailyViews(t.db, id, 0, 1_000_000);
    await t.app.get(TrendingService).recompute();
    expect(ids(await list('sort=trending&limit=1'))).toEqual([id]);
  });

  it("empties on an admin's clear-cache: what was written behind the API's back shows", async () => {
    const id = await fixture({ title: 'Behind The Back' });
    await detail(id);
    await t.db.query(`UPDATE videos SET title = 'Changed Behind' WHERE id = $1`, [id]);
    expect((await detail(id)).title).toBe('Behind The Back');
    await request(t.http).post('/api/admin/clear-cache').set(bearer(admin)).expect(200);
    expect((await detail(id)).title).toBe('Changed Behind');
  });
});

describe('catalogue cache off (CATALOGUE_CACHE=off) (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', CATALOGUE_CACHE: 'off' });
  });
  afterAll(() => t.close());

  it('reads the database every time', async () => {
    const id = await insertVideo(t.db, { title: 'Uncached' });
    await request(t.http).get(`/api/videos/${id}`).expect(200);
    await t.db.query(`UPDATE videos SET title = 'Seen At Once' WHERE id = $1`, [id]);
    expect((await request(t.http).get(`/api/videos/${id}`).expect(200)).body.title).toBe('Seen At Once');
  });
});

// Two API processes on one database and one Redis, as behind the container stack's proxy. Registered only
// where the PostgreSQL server and Redis are (the embedded database is one process's; no skipped test).
if (process.env.TEST_REDIS_URL && onPostgresServer()) {
  describe('catalogue cache, two API processes on one database and one Redis (e2e)', () => {
    let a: TestApp;
    let b: TestApp;
    let shared: Awaited<ReturnType<typeof createServerDatabase>>;
    const prefix = `cache-${randomUUID().slice(0, 8)}:`;
    const detailIn = async (t: TestApp, id: number) => request(t.http).get(`/api/videos/${id}`);
    const inA = <T>(read: () => Promise<T>, check: (value: T) => boolean) => within(1000, read, check);

    beforeAll(async () => {
      shared = await createServerDatabase(process.env.TEST_DATABASE_URL as string);
      const env = { REDIS_URL: process.env.TEST_REDIS_URL as string, REDIS_PREFIX: prefix, DATABASE_URL: shared.databaseUrl };
      a = await createTestApp({ TRUST_PROXY: 'loopback', ...env }); // migrates the shared database first
      b = await createTestApp({ TRUST_PROXY: 'loopback', ...env });
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await shared?.dropDatabase();
    });

    // Writes are made through B's services (Passport keeps one JWT strategy per Node process, so a token
    // cannot be checked by two apps in the same test process); reads are A's HTTP answers.
    it('shows every write made through the other process within a second', async () => {
      const id = await insertVideo(a.db, { title: 'Shared Before', categories: ['Shared Cat'], views: 7 });
      const gone = await insertVideo(a.db, { title: 'Shared Gone', categories: ['Shared Cat'] });
      const read = async () => (await detailIn(a, id)).body as Card & { categories: { name: string }[] };
      await read();
      await detailIn(a, gone);
      await request(a.http).get('/api/videos?category=shared-cat').expect(200);

      // An edit.
      await b.app.get(AdminVideosService).update({ id, title: 'Shared After' } as never);
      expect((await inA(read, (v) => v.title === 'Shared After')).title).toBe('Shared After');
      // A rename.
      await b.app.get(TaxonomyService).rename('categories', 'shared-cat', 'Shared Renamed');
      expect((await inA(read, (v) => v.categories[0]?.name === 'Shared Renamed')).categories).toEqual([{ id: 'shared-cat', name: 'Shared Renamed' }]);
      // A delete.
      await b.app.get(AdminVideosService).remove(gone);
      const listed = async () => ids((await request(a.http).get('/api/videos?category=shared-cat').expect(200)).body);
      expect(await inA(listed, (list) => !list.includes(gone))).toEqual([id]);
      expect((await inA(() => detailIn(a, gone), (res) => res.status === 404)).status).toBe(404);
      // Views counted in A, flushed by B (the counters' buffer is shared in Redis): exact in A.
      for (let n = 0; n < 5; n++) await request(a.http).post('/api/video/increment-views').set(guest()).send({ videoId: id }).expect(200);
      expect((await read()).views).toBe(12);
      await b.app.get(CountersService).flush();
      expect((await inA(read, (v) => v.views === 12)).views).toBe(12);
      const [row] = await a.db.query('SELECT views FROM videos WHERE id = $1', [id]);
      expect(Number(row.views)).toBe(12);
      // An admin's clear-cache.
      await a.db.query(`UPDATE videos SET title = 'Behind Both' WHERE id = $1`, [id]);
      await b.app.get(AdminService).clearCache();
      expect((await inA(read, (v) => v.title === 'Behind Both')).title).toBe('Behind Both');
    });
  });
}

// Registered only where Redis is.
if (process.env.TEST_REDIS_URL) {
  describe('catalogue cache while its Redis channel is down (e2e)', () => {
    let t: TestApp;
    let proxy: TcpProxy;

    beforeAll(async () => {
      proxy = await TcpProxy.to(process.env.TEST_REDIS_URL as string);
      t = await createTestApp({ TRUST_PROXY: 'loopback', REDIS_URL: proxy.url(process.env.TEST_REDIS_URL as string), REDIS_PREFIX: `cache-down-${randomUUID().slice(0, 8)}:` });
    });
    afterAll(async () => {
      await proxy?.restore();
      await t?.close();
      await proxy?.close();
    });

    it('reads through to the database while it cannot hear of changes, and caches again once it can', async () => {
      const id = await insertVideo(t.db, { title: 'Deaf One' });
      const title = async () => (await request(t.http).get(`/api/videos/${id}`).expect(200)).body.title as string;
      expect(await title()).toBe('Deaf One');
      await t.db.query(`UPDATE videos SET title = 'Missed Change' WHERE id = $1`, [id]);
      expect(await title()).toBe('Deaf One'); // cached, as it should be while every change is heard

      await proxy.cut();
      // Another process's change would be missed now: nothing is served from memory.
      expect(await within(2000, title, (v) => v === 'Missed Change')).toBe('Missed Change');
      await t.db.query(`UPDATE videos SET title = 'Seen Through' WHERE id = $1`, [id]);
      expect(await title()).toBe('Seen Through');

      await proxy.restore();
      expect(await within(10_000, async () => t.app.get(InvalidationBus).live, (live) => live)).toBe(true);
      // Caching again: a change behind the API's back is not seen until it is announced.
      await title();
      await t.db.query(`UPDATE videos SET title = 'Behind Again' WHERE id = $1`, [id]);
      expect(await title()).toBe('Seen Through');
    });
  });
}
