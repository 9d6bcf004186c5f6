import { editPrecondition } from '@hunktube/shared';
import request from 'supertest';
import { SearchIndex } from '../src/videos/catalogue/search-index';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

type Ref = { id: string; name: string };
type Video = Record<string, unknown> & { id: number; tags: Ref[] };
type Listing = { total: number; data: { id: number }[] };

/**
 * Tags (issue #34, point 1; api-contract.md › Discovery): GET /api/tags and /api/tags/{id}, `tags` on Video,
 * written by update-video as names (new ones created, synonyms and renamed names matched), the `tag` listing
 * filter and `tag:` exclusions with exact totals on both catalogue readers, and the admin's synonyms (a merge),
 * renames and removals, each seen by the next read. Bad input is a 400 in the error shape that writes nothing.
 */
describe.each([
  ['the database', { SEARCH_INDEX_MIN_VIDEOS: '1000000' }],
  ['the in-memory index', { SEARCH_INDEX_MIN_VIDEOS: '0' }],
])('Tags, read from %s (e2e)', (_reader, env) => {
  let t: TestApp;
  let admin: TestUser;
  const v: Record<string, number> = {};
  const list = async (query: string): Promise<Listing> => (await request(t.http).get(`/api/videos?${query}`).expect(200)).body as Listing;
  const ids = async (query: string) => (await list(query)).data.map((card) => card.id);
  const read = async (id: number): Promise<Video> => (await request(t.http).get(`/api/videos/${id}`).expect(200)).body as Video;
  const tags = async () => (await request(t.http).get('/api/tags').expect(200)).body as { data: (Ref & { video_count: number })[] };
  const update = (body: object) => request(t.http).post('/api/admin/update-video').set(bearer(admin)).send(body);

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false', ...env });
    admin = await registerAdmin(t);
    v.a = await insertVideo(t.db, { title: 'Pool Muscle', views: 30, duration: 900, categories: ['Bears'], tags: ['Muscle', 'Pool'] });
    v.b = await insertVideo(t.db, { title: 'Gym Muscle', views: 20, duration: 300, tags: ['Muscle'] });
    v.c = await insertVideo(t.db, { title: 'Pool Party', views: 10, duration: 1500, categories: ['Bears'], tags: ['Pool', 'Tattoo'] });
    v.d = await insertVideo(t.db, { title: 'Untagged', views: 40 });
    v.hidden = await insertVideo(t.db, { title: 'Soon Muscle', status: 'processing', tags: ['Muscle', 'Unpublished Only'] });
    await t.app.get(SearchIndex).load(); // the fixtures were written behind the API's back
  }, 120_000);
  afterAll(() => t?.close());

  it('lists every tag by name with its count of published videos', async () => {
    expect((await tags()).data).toEqual([
      { id: 'muscle', name: 'Muscle', video_count: 2 },
      { id: 'pool', name: 'Pool', video_count: 2 },
      { id: 'tattoo', name: 'Tattoo', video_count: 1 },
      { id: 'unpublished-only', name: 'Unpublished Only', video_count: 0 },
    ]);
    expect((await request(t.http).get('/api/tags/pool').expect(200)).body).toEqual({ id: 'pool', name: 'Pool', video_count: 2 });
    expect((await request(t.http).get('/api/tags/no-such-tag').expect(404)).body).toMatchObject({ error: 'Tag not found' });
  });

  it('gives a video its tags by name, and none to an untagged one', async () => {
    expect((await read(v.c)).tags).toEqual([{ id: 'pool', name: 'Pool' }, { id: 'tattoo', name: 'Tattoo' }]);
    expect((await read(v.d)).tags).toEqual([]);
  });

  it('lists a tag with every sort, combined with category, filters and search, totals exact', async () => {
    expect(await list('tag=muscle')).toMatchObject({ total: 2, data: [{ id: v.b }, { id: v.a }] });
    expect(await ids('tag=pool&sort=most-viewed')).toEqual([v.a, v.c]);
    expect(await ids('tag=pool&sort=longest')).toEqual([v.c, v.a]);
    expect(await list('tag=pool&category=bears&minDuration=1000')).toMatchObject({ total: 1, data: [{ id: v.c }] });
    expect(await list('tag=muscle&q=gym')).toMatchObject({ total: 1, data: [{ id: v.b }] });
    expect(await list('tag=pool&limit=1&page=2')).toMatchObject({ total: 2, data: [{ id: v.a }] });
    expect(await list('tag=no-such-tag')).toEqual({ data: [], page: 1, limit: 24, total: 0 });
    expect(await list('tag=unpublished-only')).toMatchObject({ total: 0 });
  });

  it('leaves out excluded tags, alone and with other topics', async () => {
    expect(await ids('exclude=tag:muscle')).toEqual(expect.arrayContaining([v.c, v.d]));
    expect(await list('exclude=tag:muscle')).toMatchObject({ total: 2 });
    expect(await list('exclude=tag:muscle,tag:tattoo')).toMatchObject({ total: 1, data: [{ id: v.d }] });
    expect(await list('tag=pool&exclude=category:bears')).toMatchObject({ total: 0 });
  });

  it('writes tags as names: creates new ones, matches ids, renamed names and spellings, each once', async () => {
    await read(v.d); // kept by the catalogue's caches
    const res = await update({ id: v.d, tags: ['  Leather ', 'POOL', 'pool', { id: 'tattoo', name: 'Tattoo' }] }).expect(200);
    const written = [{ id: 'leather', name: 'Leather' }, { id: 'pool', name: 'Pool' }, { id: 'tattoo', name: 'Tattoo' }];
    expect(res.body.data.tags).toEqual(written);
    expect((await read(v.d)).tags).toEqual(written);
    expect(await ids('tag=leather')).toEqual([v.d]);
    expect((await tags()).data).toContainEqual({ id: 'leather', name: 'Leather', video_count: 1 });

    // Left out: kept. [] removes them all (the tags themselves stay).
    await update({ id: v.d, title: 'Untagged again' }).expect(200);
    expect((await read(v.d)).tags).toEqual(written);
    await update({ id: v.d, tags: [] }).expect(200);
    expect((await read(v.d)).tags).toEqual([]);
    expect(await list('tag=leather')).toMatchObject({ total: 0 });
    expect((await tags()).data).toContainEqual({ id: 'leather', name: 'Leather', video_count: 0 });
  });

  it('merges a tag into another by a synonym: its videos, its address and typed names answer as the tag', async () => {
    const tattooed = await insertVideo(t.db, { title: 'Ink', tags: ['Tattoos'] });
    await t.app.get(SearchIndex).load();
    expect(await ids('tag=tattoos')).toEqual([tattooed]);

    const res = await request(t.http).post('/api/admin/tag-synonyms').set(bearer(admin)).send({ alias: 'Tattoos', tag: 'tattoo' }).expect(201);
    expect(res.body).toEqual({ alias: 'tattoos', tag: { id: 'tattoo', name: 'Tattoo' }, merged: 1 });

    expect((await read(tattooed)).tags).toEqual([{ id: 'tattoo', name: 'Tattoo' }]);
    expect(await list('tag=tattoo')).toMatchObject({ total: 2 });
    expect(await list('tag=tattoos')).toMatchObject({ total: 2 }); // the alias lists its tag
    expect(await list('exclude=tag:tattoos&tag=pool')).toMatchObject({ total: 1, data: [{ id: v.a }] });
    expect((await request(t.http).get('/api/tags/tattoos').expect(200)).body).toEqual({ id: 'tattoo', name: 'Tattoo', video_count: 2 });
    expect((await tags()).data.map((tag) => tag.id)).not.toContain('tattoos');

    // A typed alias lands on the tag, never creating the alias again.
    await update({ id: v.b, tags: ['Muscle', 'tattoos'] }).expect(200);
    expect((await read(v.b)).tags).toEqual([{ id: 'muscle', name: 'Muscle' }, { id: 'tattoo', name: 'Tattoo' }]);
    expect((await tags()).data.map((tag) => tag.id)).not.toContain('tattoos');
  });
});

describe('Tags: the admin routes (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
  });
  afterAll(() => t?.close());

  const read = async (id: number): Promise<Video> => (await request(t.http).get(`/api/videos/${id}`).expect(200)).body as Video;
  const as = (user: TestUser | null, req: request.Test) => (user ? req.set(bearer(user)) : req);
  const update = (body: object, user: TestUser | null = admin) => as(user, request(t.http).post('/api/admin/update-video')).send(body);
  const storedTags = async (id: number) =>
    (await t.db.query<{ tag_id: string }[]>('SELECT tag_id FROM video_tags WHERE video_id = $1 ORDER BY tag_id', [id])).map((row) => row.tag_id);
  const tagCount = async () => Number((await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM tags'))[0].n);

  it('answers 401 without a token and 403 for a member on every tag write, writing nothing', async () => {
    const id = await insertVideo(t.db, { tags: ['Keep'] });
    const before = await tagCount();
    await update({ id, tags: ['New'] }, null).expect(401);
    await update({ id, tags: ['New'] }, member).expect(403);
    for (const user of [null, member]) {
      const expected = user ? 403 : 401;
      await as(user, request(t.http).patch('/api/admin/tags/keep')).send({ name: 'Kept' }).expect(expected);
      await as(user, request(t.http).delete('/api/admin/tags/keep')).expect(expected);
      await as(user, request(t.http).get('/api/admin/tag-synonyms')).expect(expected);
      await as(user, request(t.http).post('/api/admin/tag-synonyms')).send({ alias: 'kept', tag: 'keep' }).expect(expected);
      await as(user, request(t.http).delete('/api/admin/tag-synonyms/kept')).expect(expected);
    }
    expect(await storedTags(id)).toEqual(['keep']);
    expect(await tagCount()).toBe(before);
  });

  it.each([
    ['an object instead of a list', { name: 'x' }, /tags must be an array of names/],
    ['null', null, /tags must be an array of names/],
    ['a number', [7], /tags must be an array of names/],
    ['a name of spaces', ['   '], /tags must be an array of names/],
    ['a name of punctuation', ['!!!'], /tags must be an array of names/],
    ['a name too long', ['x'.repeat(101)], /at most 100 characters/],
    ['a nested list', [['a']], /tags must be an array of names/],
    ['an object with other fields', [{ name: 'a', color: 'red' }], /tags must be an array of names/],
    ['an empty object', [{}], /tags must be an array of names/],
    ['31 tags', Array.from({ length: 31 }, (_, i) => `t${i}`), /a video has at most 30 tags/],
    ['a name the slug rule leaves empty', ['日本'], /must contain a letter or a digit from a to z/],
  ])('answers 400 for %s, writing nothing', async (_what, value, message) => {
    const id = await insertVideo(t.db, { tags: ['Keep'] });
    const before = await tagCount();
    const res = await update({ id, tags: value }).expect(400);
    expect(res.body).toMatchObject({ error: expect.stringMatching(message) });
    expect(await storedTags(id)).toEqual(['keep']);
    expect(await tagCount()).toBe(before);
  });

  it('makes tags part of the edit version: an edit from a read before another admin tagged is a 409', async () => {
    const id = await insertVideo(t.db, { duration: 600 });
    const before = await read(id);
    await update({ id, tags: ['Fresh'] }).expect(200);
    await update({ id, title: 'Stale edit' }).set('If-Match', editPrecondition(before as never)).expect(409);
    const after = await read(id);
    await update({ id, title: 'Current edit' }).set('If-Match', editPrecondition(after as never)).expect(200);
  });

  it('renames a tag, keeping its id and its videos; 404 for an unknown id, 409 for a taken name', async () => {
    const id = await insertVideo(t.db, { tags: ['Twink', 'Otter'] });
    const res = await request(t.http).patch('/api/admin/tags/twink').set(bearer(admin)).send({ name: 'Twinks' }).expect(200);
    expect(res.body).toEqual({ id: 'twink', name: 'Twinks' });
    expect((await read(id)).tags).toEqual([{ id: 'otter', name: 'Otter' }, { id: 'twink', name: 'Twinks' }]);
    await request(t.http).patch('/api/admin/tags/no-such-tag').set(bearer(admin)).send({ name: 'X' }).expect(404);
    await request(t.http).patch('/api/admin/tags/twink').set(bearer(admin)).send({ name: 'otter' }).expect(409);
    // A name matches the renamed tag too: no second tag is made for it.
    const other = await insertVideo(t.db);
    await update({ id: other, tags: ['twinks'] }).expect(200);
    expect(await storedTags(other)).toEqual(['twink']);
  });

  it('removes a tag from every video, with its synonyms; 404 for an unknown one', async () => {
    const id = await insertVideo(t.db, { tags: ['Spam', 'Keep'] });
    await request(t.http).post('/api/admin/tag-synonyms').set(bearer(admin)).send({ alias: 'spammy', tag: 'spam' }).expect(201);
    await read(id);
    await request(t.http).delete('/api/admin/tags/spam').set(bearer(admin)).expect(204);
    expect((await read(id)).tags).toEqual([{ id: 'keep', name: 'Keep' }]);
    expect((await request(t.http).get('/api/tags').expect(200)).body.data.map((tag: Ref) => tag.id)).not.toContain('spam');
    const synonyms = (await request(t.http).get('/api/admin/tag-synonyms').set(bearer(admin)).expect(200)).body.data as { alias: string }[];
    expect(synonyms.map((s) => s.alias)).not.toContain('spammy');
    await request(t.http).delete('/api/admin/tags/spam').set(bearer(admin)).expect(404);
  });

  it('lists, re-points and removes synonyms; a synonym of a synonym stands for its tag', async () => {
    await insertVideo(t.db, { tags: ['Bear', 'Cub'] });
    const add = (body: object) => request(t.http).post('/api/admin/tag-synonyms').set(bearer(admin)).send(body);
    await add({ alias: 'Bears', tag: 'bear' }).expect(201);
    // Naming the tag by its synonym lands on the tag.
    expect((await add({ alias: 'beary', tag: 'bears' }).expect(201)).body).toEqual({ alias: 'beary', tag: { id: 'bear', name: 'Bear' }, merged: 0 });
    // Merging a tag that has synonyms takes them along.
    await add({ alias: 'cubs', tag: 'cub' }).expect(201);
    await add({ alias: 'cub', tag: 'bear' }).expect(201);
    const list = (await request(t.http).get('/api/admin/tag-synonyms').set(bearer(admin)).expect(200)).body.data;
    expect(list).toEqual(expect.arrayContaining([
      { alias: 'bears', tag: { id: 'bear', name: 'Bear' } },
      { alias: 'beary', tag: { id: 'bear', name: 'Bear' } },
      { alias: 'cub', tag: { id: 'bear', name: 'Bear' } },
      { alias: 'cubs', tag: { id: 'bear', name: 'Bear' } },
    ]));
    await request(t.http).delete('/api/admin/tag-synonyms/beary').set(bearer(admin)).expect(204);
    await request(t.http).delete('/api/admin/tag-synonyms/beary').set(bearer(admin)).expect(404);
    await request(t.http).get('/api/tags/beary').expect(404);
    expect((await request(t.http).get('/api/tags/cubs').expect(200)).body.id).toBe('bear');
  });

  it.each([
    ['an unknown tag', { alias: 'x', tag: 'no-such-tag' }, 404, /Tag not found/],
    ['the tag itself', { alias: 'Keep', tag: 'keep' }, 400, /cannot be a synonym of itself/],
    ['an alias with no letter or digit', { alias: '!!', tag: 'keep' }, 400, /alias must contain a letter or a digit/],
    ['an alias that is not text', { alias: 5, tag: 'keep' }, 400, /alias must be a string/],
    ['no tag', { alias: 'x' }, 400, /tag must be a string/],
    ['an alias too long', { alias: 'x'.repeat(101), tag: 'keep' }, 400, /alias must be at most 100 characters long/],
    ['an extra field', { alias: 'x', tag: 'keep', merge: true }, 400, /property merge should not exist/],
  ])('answers a synonym for %s with the error, writing nothing', async (_what, body, status, message) => {
    await insertVideo(t.db, { tags: ['Keep'] });
    const before = (await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM tag_synonyms'))[0].n;
    const res = await request(t.http).post('/api/admin/tag-synonyms').set(bearer(admin)).send(body).expect(status);
    expect(res.body).toMatchObject({ error: expect.stringMatching(message) });
    expect((await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM tag_synonyms'))[0].n).toBe(before);
    expect((await request(t.http).get('/api/tags/keep').expect(200)).body.id).toBe('keep');
  });
});
