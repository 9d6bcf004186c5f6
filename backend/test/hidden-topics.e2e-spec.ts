import request from 'supertest';
import { SearchIndex } from '../src/videos/catalogue/search-index';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

type Listing = { total: number; data: { id: number }[] };
type Hidden = { categories: string[]; performers: string[]; tags: string[] };

/**
 * A member's hidden topics (issue #34, point 3; api-contract.md › Discovery): GET/PUT /api/me/hidden, members
 * only, each list at most 100 existing ids, bad input a 400 that writes nothing; and the hidden categories,
 * performers and tags gone from that member's listings (every sort, search, filters, `exclude` too), related
 * row and Continue watching, on both catalogue readers, while guests and other members see them. A member's
 * answers are private (no shared cache keeps them).
 */
describe.each([
  ['the database', { SEARCH_INDEX_MIN_VIDEOS: '1000000' }],
  ['the in-memory index', { SEARCH_INDEX_MIN_VIDEOS: '0' }],
])('Hidden topics, read from %s (e2e)', (_reader, env) => {
  let t: TestApp;
  let ann: TestUser;
  let bob: TestUser;
  const v: Record<string, number> = {};
  const list = async (query: string, user?: TestUser): Promise<Listing> => {
    const req = request(t.http).get(`/api/videos?${query}`);
    return (await (user ? req.set(bearer(user)) : req).expect(200)).body as Listing;
  };
  const ids = async (query: string, user?: TestUser) => (await list(query, user)).data.map((card) => card.id);
  const hide = (user: TestUser, body: object) => request(t.http).put('/api/me/hidden').set(bearer(user)).send(body);

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false', ...env });
    ann = await registerUser(t.http);
    bob = await registerUser(t.http);
    v.bears = await insertVideo(t.db, { title: 'Pool Bears', views: 50, categories: ['Bears'], performers: ['Ace'] });
    v.ace = await insertVideo(t.db, { title: 'Pool Ace', views: 40, performers: ['Ace', 'Bo'] });
    v.feet = await insertVideo(t.db, { title: 'Pool Feet', views: 30, performers: ['Bo'], tags: ['Feet'] });
    v.plain = await insertVideo(t.db, { title: 'Pool Plain', views: 20, categories: ['Outdoor'], performers: ['Bo'] });
    v.other = await insertVideo(t.db, { title: 'Gym Other', views: 10, categories: ['Outdoor'] });
    await t.app.get(SearchIndex).load(); // the fixtures were written behind the API's back
  }, 120_000);
  afterAll(() => t?.close());

  it('keeps nothing hidden for a new member, and a member their own list', async () => {
    expect((await request(t.http).get('/api/me/hidden').set(bearer(ann)).expect(200)).body).toEqual({ categories: [], performers: [], tags: [] });
    const res = await hide(ann, { categories: ['bears'], performers: [], tags: ['feet', 'feet'] }).expect(200);
    expect(res.body).toEqual({ categories: ['bears'], performers: [], tags: ['feet'] });
    expect((await request(t.http).get('/api/me/hidden').set(bearer(ann)).expect(200)).body).toEqual({ categories: ['bears'], performers: [], tags: ['feet'] });
    expect((await request(t.http).get('/api/me/hidden').set(bearer(bob)).expect(200)).body).toEqual({ categories: [], performers: [], tags: [] });
  });

  it("leaves the member's hidden topics out of every listing, sort and search, with exact totals; not for others", async () => {
    expect(await list('', ann)).toMatchObject({ total: 3 });
    expect(await ids('sort=most-viewed', ann)).toEqual([v.ace, v.plain, v.other]);
    expect(await ids('sort=trending', ann)).not.toEqual(expect.arrayContaining([v.bears]));
    expect(await ids('q=pool', ann)).toEqual(expect.arrayContaining([v.ace, v.plain]));
    expect(await list('q=pool', ann)).toMatchObject({ total: 2 });
    expect(await list('performer=ace', ann)).toMatchObject({ total: 1, data: [{ id: v.ace }] });
    expect(await list('tag=feet', ann)).toMatchObject({ total: 0 });
    // With exclude as well: both apply.
    expect(await list('exclude=performer:ace', ann)).toMatchObject({ total: 2 });
    // Guests and other members see everything.
    expect(await list('')).toMatchObject({ total: 5 });
    expect(await list('', bob)).toMatchObject({ total: 5 });
  });

  it("answers a member's listing privately, a guest's publicly", async () => {
    const member = await request(t.http).get('/api/videos').set(bearer(ann)).expect(200);
    expect(member.headers['cache-control']).toBe('private, no-store');
    const guest = await request(t.http).get('/api/videos').expect(200);
    expect(guest.headers['cache-control']).toMatch(/^public/);
    // A guest's answer kept for the next reads of that address is never a member's.
    await request(t.http).get('/api/videos?sort=longest').expect(200);
    await request(t.http).get('/api/videos?sort=longest').expect(200);
    expect(await list('sort=longest', ann)).toMatchObject({ total: 3 });
    expect(await list('sort=longest')).toMatchObject({ total: 5 });
    // Signed in by the session cookie, as every browser is (the hot answers run before the cookie parser).
    const byCookie = await request(t.http).get('/api/videos?sort=longest').set('Cookie', `access_token=${ann.token}`).expect(200);
    expect(byCookie.body).toMatchObject({ total: 3 });
    expect(byCookie.headers['cache-control']).toBe('private, no-store');
  });

  it("leaves them out of the related row and the Continue watching row", async () => {
    const related = (await request(t.http).get(`/api/videos/${v.ace}/related`).set(bearer(ann)).expect(200)).body.data.map((c: { id: number }) => c.id);
    expect(related).not.toContain(v.bears);
    expect(related).not.toContain(v.feet);
    const guestRelated = (await request(t.http).get(`/api/videos/${v.ace}/related`).expect(200)).body.data.map((c: { id: number }) => c.id);
    expect(guestRelated).toEqual(expect.arrayContaining([v.bears, v.feet]));

    for (const id of [v.bears, v.feet, v.plain]) {
      await request(t.http).put(`/api/me/history/${id}/position`).set(bearer(ann)).send({ position: 30 }).expect(200);
    }
    const row = (await request(t.http).get('/api/me/continue-watching').set(bearer(ann)).expect(200)).body.data.map((c: { id: number }) => c.id);
    expect(row).toEqual([v.plain]);
    // Cards by id (a guest's row kept in the browser): the member's hidden topics are left out too.
    const cards = (await request(t.http).get(`/api/cards?ids=${v.bears},${v.feet},${v.plain}`).set(bearer(ann)).expect(200)).body.data.map((c: { id: number }) => c.id);
    expect(cards).toEqual([v.plain]);
  });

  it("leaves a guest's hidden topics, sent as exclude, out of the related row and the cards by id", async () => {
    const related = (await request(t.http).get(`/api/videos/${v.ace}/related?exclude=category:bears,tag:feet`).expect(200)).body.data.map((c: { id: number }) => c.id);
    expect(related).not.toContain(v.bears);
    expect(related).not.toContain(v.feet);
    expect(related).toContain(v.plain);
    const cards = (await request(t.http).get(`/api/cards?ids=${v.bears},${v.feet},${v.plain}&exclude=performer:ace`).expect(200)).body.data.map((c: { id: number }) => c.id);
    expect(cards).toEqual([v.feet, v.plain]);
    await request(t.http).get(`/api/videos/${v.ace}/related?exclude=bears`).expect(400);
    await request(t.http).get(`/api/cards?ids=${v.bears}&exclude=tag:Feet`).expect(400);
  });

  it('shows them again once unhidden, and reads a hidden tag through its synonym after a merge', async () => {
    const admin = await registerAdmin(t);
    await hide(ann, { categories: [], performers: [], tags: [] }).expect(200);
    expect(await list('', ann)).toMatchObject({ total: 5 });
    // Hidden by a tag that is later merged into another: the videos of the merged tag stay hidden.
    const inked = await insertVideo(t.db, { title: 'Inked', tags: ['Ink'] });
    await insertVideo(t.db, { title: 'Tattooed', tags: ['Tattoo'] });
    await t.app.get(SearchIndex).load();
    await hide(ann, { categories: [], performers: [], tags: ['ink'] }).expect(200);
    expect(await ids('sort=newest', ann)).not.toContain(inked);
    await request(t.http).post('/api/admin/tag-synonyms').set(bearer(admin)).send({ alias: 'ink', tag: 'tattoo' }).expect(201);
    expect(await ids('sort=newest', ann)).not.toContain(inked);
    expect(await list('tag=tattoo', ann)).toMatchObject({ total: 0 });
    await hide(ann, { categories: [], performers: [], tags: [] }).expect(200);
  });
});

describe('Hidden topics: the routes (e2e)', () => {
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false' });
    member = await registerUser(t.http);
    await insertVideo(t.db, { categories: ['Bears'], performers: ['Ace'], tags: ['Feet'] });
    await request(t.http).put('/api/me/hidden').set(bearer(member)).send({ categories: ['bears'], performers: [], tags: [] }).expect(200);
  });
  afterAll(() => t?.close());

  const stored = async () => (await request(t.http).get('/api/me/hidden').set(bearer(member)).expect(200)).body as Hidden;

  it('answers 401 to a guest, reading and writing nothing', async () => {
    await request(t.http).get('/api/me/hidden').expect(401);
    await request(t.http).put('/api/me/hidden').send({ categories: [], performers: [], tags: [] }).expect(401);
    expect(await stored()).toEqual({ categories: ['bears'], performers: [], tags: [] });
  });

  const valid = { categories: [], performers: [], tags: [] };
  it.each([
    ['a list left out', { categories: [], performers: [] }, /tags must be an array of ids/],
    ['a list that is not one', { ...valid, performers: 'ace' }, /performers must be an array of ids/],
    ['null', { ...valid, categories: null }, /categories must be an array of ids/],
    ['a number for an id', { ...valid, tags: [7] }, /each of tags must be an id/],
    ['an id that is not a slug', { ...valid, categories: ['Bears'] }, /each of categories must be an id/],
    ['an id too long', { ...valid, categories: ['a'.repeat(101)] }, /each of categories must be an id of at most 100 characters/],
    ['101 ids', { ...valid, tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, /at most 100 tags may be hidden/],
    ['an unknown category', { ...valid, categories: ['no-such-category'] }, /Unknown category: no-such-category/],
    ['an unknown performer', { ...valid, performers: ['nobody'] }, /Unknown performer: nobody/],
    ['an unknown tag', { ...valid, tags: ['bears'] }, /Unknown tag: bears/],
    ['an extra field', { ...valid, users: [] }, /property users should not exist/],
    ['a list instead of the object', [], /must be an array of ids|object/],
  ])('answers 400 for %s, changing nothing', async (_what, body, message) => {
    const res = await request(t.http).put('/api/me/hidden').set(bearer(member)).send(body as object).expect(400);
    expect(res.body).toMatchObject({ error: expect.stringMatching(message) });
    expect(await stored()).toEqual({ categories: ['bears'], performers: [], tags: [] });
  });

  it('takes 100 of each kind', async () => {
    const many = Array.from({ length: 100 }, (_, i) => `c${String(i).padStart(3, '0')}`);
    for (const id of many) await t.db.query('INSERT INTO categories (id, name) VALUES ($1, $1)', [id]);
    const res = await request(t.http).put('/api/me/hidden').set(bearer(member)).send({ categories: many, performers: ['ace'], tags: ['feet'] }).expect(200);
    expect(res.body.categories).toHaveLength(100);
    await request(t.http).put('/api/me/hidden').set(bearer(member)).send({ categories: ['bears'], performers: [], tags: [] }).expect(200);
  });
});
