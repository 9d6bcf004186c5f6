import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AdminVideosService } from '../src/admin/admin-videos.service';
import { CountersService } from '../src/videos/counters/counters.service';
import { SqlCatalogueReader } from '../src/videos/catalogue/sql-catalogue-reader';
import { rng as random } from '../src/database/seeds/catalog-generator';
import { VIDEO_SORTS as SORTS, type VideoSort } from '../src/videos/dto/list-videos.query';
import { SearchIndex } from '../src/videos/catalogue/search-index';
import { TrendingService } from '../src/videos/trending.service';
import { VideosRepository } from '../src/videos/videos.repository';
import { insertVideo, guestFrom } from './helpers/factories';
import { bearer, createServerDatabase, createTestApp, registerAdmin, TestApp, TestUser } from './helpers/test-app';

/**
 * Title search from memory (SearchIndex, on from SEARCH_INDEX_MIN_VIDEOS published videos; 0 here): every
 * answer is the database's own, for every sort and page, and every write path shows on the next search.
 * The database's answers come from SqlCatalogueReader without the index, on the same data.
 */
const WORDS = ['hot', 'hotel', 'hottest', 'bear', 'bears', 'beach', 'pool', 'poolside', 'gym', 'workouts', 'working', 'the', 'and', 'muscle', 'twink', 'daddy', 'café', 'x1y2'];
const QUERIES = ['hot', 'ho', 'bear', 'BEARS', 'work', 'workout', 'pool hot', 'the', 'the beach', 'café', 'zebra', 'h', 'x1', 'gym muscle hot', 'poolside-party'];
/** Categories big and small, performers many; a few videos carry none (related falls back to trending). */
const CATEGORIES = ['Bears', 'Outdoor', 'Gym', 'Vintage', 'Rare Finds'];
const PERFORMERS = Array.from({ length: 15 }, (_, i) => `Performer ${i}`);
const guest = () => guestFrom(`search-guest-${randomUUID()}`);
const ids = (body: { data: { id: number }[] }) => body.data.map((v) => v.id);

/** Videos with titles from WORDS (popular ones more often), tied and distinct keys, some unpublished. */
async function seed(t: TestApp, count: number): Promise<number[]> {
  const next = random(11);
  const made: number[] = [];
  const day = Date.UTC(2025, 0, 1);
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 2 + Math.floor(next() * 4) }, () => WORDS[Math.floor(next() ** 2 * WORDS.length)]);
    const some = (from: string[], most: number) =>
      [...new Set(Array.from({ length: Math.floor(next() * (most + 1)) }, () => from[Math.floor(next() ** 2 * from.length)]))];
    const id = await insertVideo(t.db, {
      categories: some(CATEGORIES, 3),
      performers: some(PERFORMERS, 2),
      title: words.join(' '),
      views: Math.floor(next() * 40),
      likes: Math.floor(next() * 6),
      duration: next() < 0.1 ? null : 1 + Math.floor(next() * 30),
      upload_date: new Date(day + Math.floor(next() * 20) * 86_400_000 + (next() < 0.5 ? 0 : 123)),
      status: next() < 0.05 ? 'processing' : 'ready',
      jtg_title: next() < 0.1 ? 'Sunny Sand' : '',
    });
    made.push(id);
  }
  // Trending scores as a recompute leaves them: many zeros, some ties.
  await t.db.query(`UPDATE videos SET trending_score = (id % 7) * 1.5 WHERE id % 3 = 0`);
  return made;
}

/** Sends every SQL statement the app runs to `seen`, to prove which answers did not search the database. */
function recordStatements(t: TestApp, seen: string[]): void {
  const create = t.db.createQueryRunner.bind(t.db);
  t.db.createQueryRunner = (mode) => {
    const runner = create(mode);
    const query = runner.query.bind(runner);
    runner.query = ((...args: Parameters<typeof query>) => {
      seen.push(String(args[0]));
      return query(...args);
    }) as typeof runner.query;
    return runner;
  };
}

type Filter = { q?: string; category?: string; performer?: string; featured?: boolean };

/** The API's answers (from the index) against the database's (SqlCatalogueReader without it), every page. */
async function expectDatabaseAnswers(
  t: TestApp, queries: (string | Filter)[], limits = [7, 24], recorded?: { all: string[]; api: string[] },
): Promise<void> {
  const database = new SqlCatalogueReader(t.db);
  for (const query of queries) {
    const filter = typeof query === 'string' ? { q: query } : query;
    const name = JSON.stringify(filter);
    const total = await database.total(filter);
    for (const sort of SORTS) {
      for (const limit of limits) {
        const pages = Math.max(1, Math.ceil(total / limit)) + 1;
        for (let page = 1; page <= pages; page++) {
          const from = recorded?.all.length ?? 0;
          const res = await request(t.http).get('/api/videos').query({ ...filter, sort, page, limit }).expect(200);
          recorded?.api.push(...recorded.all.slice(from));
          expect(res.body.total, `${name} ${sort}`).toBe(total);
          const expected = await database.pageIds({ ...filter, sort, page, limit }, total);
          expect(ids(res.body), `${name} ${sort} page ${page} of ${limit}`).toEqual(expected);
        }
      }
    }
  }
}

/** Category, performer and mixed listings the index answers, by slug. */
const TAXON_FILTERS: Filter[] = [
  { category: 'bears' }, { category: 'rare-finds' }, { category: 'no-such-category' }, { performer: 'performer-0' },
  { performer: 'performer-14' }, { category: 'gym', performer: 'performer-1' }, { q: 'hot', category: 'outdoor' },
  { q: 'the', category: 'bears' }, { q: 'bear', performer: 'performer-2' },
];

/** Each video's related ranking from the API against the database's, for a sample (and a video sharing nothing). */
async function expectDatabaseRelated(t: TestApp, recorded?: { all: string[]; api: string[] }): Promise<void> {
  const database = new SqlCatalogueReader(t.db);
  const rows = await t.db.query<{ id: number }[]>(`SELECT id FROM videos WHERE status = 'ready' AND id % 9 = 0 ORDER BY id`);
  const [lonely] = await t.db.query<{ id: number }[]>(
    `SELECT id FROM videos v WHERE status = 'ready' AND NOT EXISTS (SELECT 1 FROM video_categories c WHERE c.video_id = v.id)
       AND NOT EXISTS (SELECT 1 FROM video_performers p WHERE p.video_id = v.id) LIMIT 1`,
  );
  expect(lonely).toBeDefined();
  for (const id of [...rows.map((r) => Number(r.id)), Number(lonely.id)]) {
    const from = recorded?.all.length ?? 0;
    const res = await request(t.http).get(`/api/videos/${id}/related`).expect(200);
    recorded?.api.push(...recorded.all.slice(from));
    const expected = await database.related(id);
    expect({ related: res.body.related, ids: ids(res.body) }, `related of ${id}`).toEqual(expected);
  }
}

describe('search index, one API process (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let search: SearchIndex;
  const statements: string[] = [];
  const find = async (q: string, sort: VideoSort = 'newest') =>
    (await request(t.http).get('/api/videos').query({ q, sort, limit: 60 }).expect(200)).body as { total: number; data: { id: number; title: string }[] };

  beforeAll(async () => {
    // The catalogue cache off: every answer below is the index's (or the database's), never a kept page.
    t = await createTestApp({ TRUST_PROXY: 'loopback', SEARCH_INDEX_MIN_VIDEOS: '0', CATALOGUE_CACHE: 'off' });
    admin = await registerAdmin(t);
    search = t.app.get(SearchIndex);
    await seed(t, 500);
    await search.load(); // the fixtures were written behind the API's back
    recordStatements(t, statements);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('loads the published videos and answers every search as the database does, without searching it', async () => {
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM videos WHERE status = 'ready'`);
    expect(search.ready).toBe(true);
    expect(search.stats.videos).toBe(Number(n));
    expect((await request(t.http).get('/api/health').expect(200)).body).toMatchObject({ status: 'ok', searchIndex: 'ready' });
    const api: string[] = [];
    await expectDatabaseAnswers(t, QUERIES, [7, 24], { all: statements, api });
    // The API's requests never ran a full-text match; they had PostgreSQL normalise each query once.
    expect(api.filter((sql) => sql.includes('search_vector @@'))).toEqual([]);
    expect(api.filter((sql) => sql.includes('to_tsquery')).length).toBe(QUERIES.length);
    expect(api.length).toBeGreaterThan(0);
  }, 300_000);

  it('answers the whole catalogue, category, performer and mixed listings, and related rankings, as the database does, without reading them there', async () => {
    const api: string[] = [];
    await expectDatabaseAnswers(t, [{}, ...TAXON_FILTERS], [7, 24], { all: statements, api });
    await expectDatabaseRelated(t, { all: statements, api });
    // Neither the join tables nor their counts, nor an ordered page of videos, were read for a listing or a ranking.
    expect(api.filter((sql) => /video_categories|video_performers|catalogue_counts|search_vector @@|FROM videos\b[^;]*ORDER BY/.test(sql))).toEqual([]);
    expect(api.length).toBeGreaterThan(0); // the cards' rows
  }, 300_000);

  it("shows an admin's change of a video's categories and performers on the very next listing and ranking", async () => {
    const [row] = await t.db.query(`SELECT id FROM videos WHERE status = 'ready' ORDER BY id DESC LIMIT 1`);
    const id = Number(row.id);
    await request(t.http).post('/api/admin/update-video').set(bearer(admin))
      .send({ id, categories: [{ id: 'rare-finds' }], performers: [{ id: 'performer-14' }], views: 100_000 }).expect(200);
    const listed = (filter: Filter) => request(t.http).get('/api/videos').query({ ...filter, sort: 'most-viewed', limit: 60 }).expect(200);
    expect(ids((await listed({ category: 'rare-finds' })).body)[0]).toBe(id);
    expect(ids((await listed({ performer: 'performer-14', category: 'rare-finds' })).body)[0]).toBe(id);
    await expectDatabaseAnswers(t, [{ category: 'rare-finds' }, { performer: 'performer-14' }], [24]);
    // A video sharing its performer (and nothing else with anyone) now has it among its related videos.
    const other = await insertVideo(t.db, { performers: ['Performer 14'] });
    t.videosChanged([other]);
    const relatedTo = async (of: number) => ids((await request(t.http).get(`/api/videos/${of}/related`).expect(200)).body);
    expect(await relatedTo(other)).toContain(id);

    await request(t.http).post('/api/admin/update-video').set(bearer(admin)).send({ id, categories: [], performers: [] }).expect(200);
    expect(ids((await listed({ category: 'rare-finds' })).body)).not.toContain(id);
    expect(ids((await listed({ performer: 'performer-14' })).body)).not.toContain(id);
    expect(await relatedTo(other)).not.toContain(id);
    await expectDatabaseAnswers(t, [{ category: 'rare-finds' }, { performer: 'performer-14' }], [24]);
    await expectDatabaseRelated(t);
  }, 120_000);

  it("shows an admin's title edit and a delete on the very next search", async () => {
    const id = await insertVideo(t.db, { title: 'Zebra Quokka Search' });
    t.videosChanged([id]); // announced as a publication would be
    expect(ids(await find('zebra'))).toEqual([id]);

    await request(t.http).post('/api/admin/update-video').set(bearer(admin)).send({ id, title: 'Wombat Search' }).expect(200);
    expect((await find('zebra')).total).toBe(0);
    expect(ids(await find('womb'))).toEqual([id]);

    await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id }).expect(200);
    expect((await find('wombat')).total).toBe(0);
  });

  it('shows a published upload on the next search, and a failed one never', async () => {
    const repository = t.app.get(VideosRepository);
    const published = await insertVideo(t.db, { title: 'Narwhal Published', status: 'processing' });
    const failed = await insertVideo(t.db, { title: 'Narwhal Failed', status: 'processing' });
    expect((await find('narwhal')).total).toBe(0);
    await repository.publish(published, `narwhal-${published}`, { durationSeconds: 30, width: 640, height: 360 });
    await repository.markFailed(failed);
    expect(ids(await find('narwhal'))).toEqual([published]);
  });

  it('orders by counts as the database does after views, likes, a flush, an admin count change and a recompute', async () => {
    const [some] = await t.db.query(`SELECT id FROM videos WHERE status = 'ready' AND title ILIKE '%bear%' ORDER BY views LIMIT 1`);
    const id = Number(some.id);
    for (let n = 0; n < 60; n++) {
      await request(t.http).post('/api/video/increment-views').set(guest()).send({ videoId: id }).expect(200);
      await request(t.http).post('/api/video/add-trending').set(guest()).send({ videoId: id }).expect(204);
    }
    await request(t.http).post('/api/video/increment-likes').set(guest()).send({ videoId: id }).expect(200);
    await t.app.get(CountersService).flush();
    expect(ids(await find('bear', 'most-viewed'))[0]).toBe(id);
    await expectDatabaseAnswers(t, ['bear', 'hot'], [24]);

    await t.app.get(AdminVideosService).update({ id, views: 0, likes: 0 } as never);
    expect(ids(await find('bear', 'most-viewed'))[0]).not.toBe(id);
    await expectDatabaseAnswers(t, ['bear'], [24]);
    await t.app.get(TrendingService).recompute();
    await expectDatabaseAnswers(t, ['bear', 'hot', { category: 'bears' }, { performer: 'performer-0' }], [24]);
    await expectDatabaseRelated(t);
  }, 120_000);

  it("reads everything again after an admin's clear-cache, answering from the database meanwhile", async () => {
    const id = await insertVideo(t.db, { title: 'Behind Back Axolotl' });
    expect((await find('axolotl')).total).toBe(0); // written behind the owner's back: not announced
    await request(t.http).post('/api/admin/clear-cache').set(bearer(admin)).send({}).expect(200);
    // Set aside at once: the database answers until the index is loaded again.
    expect(ids(await find('axolotl'))).toEqual([id]);
    // Loaded again; on a loaded machine the bus may drop and take Redis back meanwhile (1 s command timeout),
    // which sets the index aside once more: it is ready once a load ends with the bus live.
    await vi.waitFor(async () => {
      await search.load();
      expect(search.ready).toBe(true);
    }, { timeout: 20_000, interval: 500 });
    expect(ids(await find('axolotl'))).toEqual([id]);
  });

  it("answers featured listings and a q without a word from memory as the database does, an admin's featuring on the next one", async () => {
    const [row] = await t.db.query(`SELECT id FROM videos WHERE status = 'ready' AND title ILIKE '%hot%' ORDER BY id LIMIT 1`);
    await request(t.http).post('/api/admin/update-video').set(bearer(admin)).send({ id: Number(row.id), featured: 3 }).expect(200);
    expect(ids((await request(t.http).get('/api/videos').query({ featured: true }).expect(200)).body)).toEqual([Number(row.id)]);
    const api: string[] = [];
    await expectDatabaseAnswers(t, [{ featured: true }, { featured: false }, { q: 'hot', featured: false }, { q: '!!!', category: 'bears' }], [24], { all: statements, api });
    expect(api.filter((sql) => /video_categories|video_performers|catalogue_counts|search_vector @@|FROM videos\b[^;]*ORDER BY/.test(sql))).toEqual([]);
  }, 120_000);
});

describe('search index below SEARCH_INDEX_MIN_VIDEOS (e2e)', () => {
  it('is not loaded, and the database answers searches', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'loopback', SEARCH_INDEX_MIN_VIDEOS: '1000' });
    try {
      const id = await insertVideo(t.db, { title: 'Small Catalogue Ibex' });
      await t.app.get(SearchIndex).load();
      expect(t.app.get(SearchIndex).ready).toBe(false);
      expect((await request(t.http).get('/api/health').expect(200)).body.searchIndex).toBe('off');
      expect(ids((await request(t.http).get('/api/videos?q=ibex').expect(200)).body)).toEqual([id]);
    } finally {
      await t.close();
    }
  });
});

// Two API processes need the PostgreSQL server and Redis.
if (process.env.TEST_DB === 'postgres' && process.env.TEST_REDIS_URL) {
  describe('search index, two API processes on one database and one Redis (e2e)', () => {
    let a: TestApp;
    let b: TestApp;
    let shared: Awaited<ReturnType<typeof createServerDatabase>>;

    beforeAll(async () => {
      shared = await createServerDatabase(process.env.TEST_DATABASE_URL as string);
      const env = {
        REDIS_URL: process.env.TEST_REDIS_URL as string, REDIS_PREFIX: `search-${randomUUID().slice(0, 8)}:`,
        DATABASE_URL: shared.databaseUrl, SEARCH_INDEX_MIN_VIDEOS: '0', CATALOGUE_CACHE: 'off',
      };
      a = await createTestApp({ TRUST_PROXY: 'loopback', ...env });
      b = await createTestApp({ TRUST_PROXY: 'loopback', ...env });
      await seed(a, 150);
      await Promise.all([a.app.get(SearchIndex).load(), b.app.get(SearchIndex).load()]);
    }, 120_000);
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await shared?.dropDatabase();
    });

    /** Polls A's search until `check` holds, for at most a second (the bound across processes). */
    const inA = async (q: string, sort: VideoSort, check: (found: number[]) => boolean) => {
      const deadline = Date.now() + 1000;
      for (;;) {
        const found = ids((await request(a.http).get('/api/videos').query({ q, sort, limit: 60 }).expect(200)).body);
        if (check(found) || Date.now() > deadline) return found;
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    it("shows the other process's edits, deletes and flushed counts within a second", async () => {
      expect(a.app.get(SearchIndex).ready).toBe(true);
      const [row] = await a.db.query(`SELECT id FROM videos WHERE status = 'ready' AND title ILIKE '%pool%' ORDER BY id LIMIT 1`);
      const id = Number(row.id);
      await b.app.get(AdminVideosService).update({ id, title: 'Okapi Shared' } as never);
      expect(await inA('okapi', 'newest', (found) => found.includes(id))).toEqual([id]);

      // Views counted in A, flushed by B: A's order follows the database's.
      for (let n = 0; n < 80; n++) await request(a.http).post('/api/video/increment-views').set(guest()).send({ videoId: id }).expect(200);
      await b.app.get(CountersService).flush();
      expect((await inA('okapi', 'most-viewed', () => true))[0]).toBe(id);
      const hot = await new SqlCatalogueReader(a.db).pageIds({ q: 'hot', sort: 'most-viewed', page: 1, limit: 60 }, 0);
      expect(await inA('hot', 'most-viewed', (found) => found.join() === hot.join())).toEqual(hot);

      // B moves it to another category: A lists it there, and no longer in the old one, within a second.
      const inCategory = async (category: string, check: (found: number[]) => boolean) => {
        const deadline = Date.now() + 1000;
        for (;;) {
          const found = ids((await request(a.http).get('/api/videos').query({ category, sort: 'most-viewed', limit: 60 }).expect(200)).body);
          if (check(found) || Date.now() > deadline) return found;
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      await b.app.get(AdminVideosService).update({ id, categories: [{ id: 'rare-finds' }] } as never);
      expect((await inCategory('rare-finds', (found) => found[0] === id))[0]).toBe(id);
      expect(await inCategory('bears', (found) => !found.includes(id))).not.toContain(id);

      await b.app.get(AdminVideosService).remove(id);
      expect(await inA('okapi', 'newest', (found) => found.length === 0)).toEqual([]);
      expect(await inCategory('rare-finds', (found) => !found.includes(id))).not.toContain(id);
    });
  });
}
