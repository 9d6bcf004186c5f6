import request from 'supertest';
import { FOLLOW_CAP } from '../src/lists/follows.service';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerUser, TestApp, TestUser } from './helpers/test-app';

const day = (n: number) => new Date(Date.UTC(2025, 0, n));

describe('Following performers (e2e)', () => {
  let t: TestApp;
  let ann: TestUser;
  let bob: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    ann = await registerUser(t.http);
    bob = await registerUser(t.http);
    // Alex Stone: three videos (one shared with Ben Cruz); Ben Cruz: two; Carl Diaz: one; an unpublished one.
    ids.alexOld = await insertVideo(t.db, { title: 'Alex old', performers: ['Alex Stone'], upload_date: day(1) });
    ids.alexMid = await insertVideo(t.db, { title: 'Alex mid', performers: ['Alex Stone'], upload_date: day(5) });
    ids.both = await insertVideo(t.db, { title: 'Alex and Ben', performers: ['Alex Stone', 'Ben Cruz'], upload_date: day(9) });
    ids.ben = await insertVideo(t.db, { title: 'Ben alone', performers: ['Ben Cruz'], upload_date: day(7) });
    ids.carl = await insertVideo(t.db, { title: 'Carl alone', performers: ['Carl Diaz'], upload_date: day(20) });
    ids.hidden = await insertVideo(t.db, { title: 'Alex unpublished', performers: ['Alex Stone'], upload_date: day(30), status: 'processing' });
    await t.db.query(`INSERT INTO performers (id, name) VALUES ('dan-eel', 'Dan Eel')`);
  });
  afterAll(() => t.close());

  const follow = (user: TestUser | null, id: string, body?: object) => {
    const req = request(t.http).put(`/api/me/following/${id}`);
    return (user ? req.set(bearer(user)) : req).send(body);
  };
  const unfollow = (user: TestUser, id: string) => request(t.http).delete(`/api/me/following/${id}`).set(bearer(user));
  const list = (user: TestUser) => request(t.http).get('/api/me/following').set(bearer(user)).expect(200).then((r) => r.body);
  const feed = (user: TestUser, query = '') => request(t.http).get(`/api/me/followed-videos${query}`).set(bearer(user)).expect(200).then((r) => r.body);

  it('starts empty: no performer followed, an empty feed', async () => {
    expect(await list(ann)).toEqual({ data: [] });
    expect(await feed(ann)).toEqual({ data: [], page: 1, limit: 24, total: 0 });
  });

  it('follows idempotently and lists the performers, most recently followed first, with their published videos', async () => {
    expect((await follow(ann, 'ben-cruz').expect(200)).body).toEqual({ following: true });
    expect((await follow(ann, 'alex-stone').expect(200)).body).toEqual({ following: true });
    expect((await follow(ann, 'alex-stone').expect(200)).body).toEqual({ following: true });
    const { data } = await list(ann);
    expect(data).toEqual([
      { id: 'alex-stone', name: 'Alex Stone', video_count: 3, followed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { id: 'ben-cruz', name: 'Ben Cruz', video_count: 2, followed_at: expect.any(String) },
    ]);
    expect(Date.parse(data[0].followed_at)).toBeGreaterThanOrEqual(Date.parse(data[1].followed_at));
  });

  it('feeds the followed performers’ published videos, each once, newest upload first, paged', async () => {
    const all = await feed(ann);
    expect(all.total).toBe(4);
    expect(all.data.map((v: { id: number }) => v.id)).toEqual([ids.both, ids.ben, ids.alexMid, ids.alexOld]);
    expect(all.data[0]).toMatchObject({ title: 'Alex and Ben', views: 0, likes: 0 });
    expect(Object.keys(all.data[0]).sort()).toEqual(
      ['atg_title', 'cdn', 'duration', 'featured', 'id', 'jtg_title', 'likes', 'preview', 'slug', 'thumbnail', 'title', 'upload_date', 'url', 'views'],
    );
    const second = await feed(ann, '?page=2&limit=3');
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids.alexOld })], page: 2, limit: 3, total: 4 });
    expect((await feed(ann, '?page=3&limit=3')).data).toEqual([]);
  });

  it('keeps each member’s follows their own', async () => {
    expect(await list(bob)).toEqual({ data: [] });
    await follow(bob, 'carl-diaz').expect(200);
    expect((await feed(bob)).data.map((v: { id: number }) => v.id)).toEqual([ids.carl]);
    // Bob unfollowing Ann's performer changes nothing of Ann's.
    expect((await unfollow(bob, 'alex-stone').expect(200)).body).toEqual({ following: false });
    expect((await list(ann)).data.map((p: { id: string }) => p.id)).toEqual(['alex-stone', 'ben-cruz']);
  });

  it('unfollows idempotently, and the feed follows', async () => {
    expect((await unfollow(ann, 'ben-cruz').expect(200)).body).toEqual({ following: false });
    expect((await unfollow(ann, 'ben-cruz').expect(200)).body).toEqual({ following: false });
    expect((await feed(ann)).data.map((v: { id: number }) => v.id)).toEqual([ids.both, ids.alexMid, ids.alexOld]);
  });

  it('follows a performer with no published video (an empty feed from them) and drops a deleted performer', async () => {
    await follow(ann, 'dan-eel').expect(200);
    expect((await list(ann)).data[0]).toMatchObject({ id: 'dan-eel', video_count: 0 });
    await t.db.query(`DELETE FROM performers WHERE id = 'dan-eel'`);
    expect((await list(ann)).data.map((p: { id: string }) => p.id)).toEqual(['alex-stone']);
  });

  describe('refusals', () => {
    it('answers 401 without a session, for every route', async () => {
      await request(t.http).get('/api/me/following').expect(401);
      await request(t.http).get('/api/me/followed-videos').expect(401);
      await follow(null, 'alex-stone').expect(401);
      await request(t.http).delete('/api/me/following/alex-stone').expect(401);
    });

    it('answers 404 for an unknown performer, following nothing', async () => {
      const res = await follow(ann, 'nobody-at-all').expect(404);
      expect(res.body).toEqual({ error: 'Performer not found', statusCode: 404 });
      expect((await list(ann)).data.map((p: { id: string }) => p.id)).toEqual(['alex-stone']);
    });

    it.each(['Alex-Stone', 'alex_stone', 'a'.repeat(101), '-alex', 'alex--stone', '%20'])('answers 400 for the id %j', async (id) => {
      const res = await follow(ann, encodeURIComponent(id)).expect(400);
      expect(res.body).toEqual({ error: 'performerId must be a performer id (lowercase letters, digits and dashes, at most 100)', statusCode: 400 });
      await unfollow(ann, encodeURIComponent(id)).expect(400);
    });

    it('answers 400 for a body with fields, and for a bad page or limit', async () => {
      await follow(ann, 'carl-diaz', { performerId: 'carl-diaz' }).expect(400);
      expect((await list(ann)).data.map((p: { id: string }) => p.id)).toEqual(['alex-stone']);
      for (const query of ['?page=0', '?limit=61', '?limit=abc', '?page=1.5', '?extra=1']) {
        await request(t.http).get(`/api/me/followed-videos${query}`).set(bearer(ann)).expect(400);
      }
    });

    it(`stops at ${FOLLOW_CAP} performers with 409 FOLLOW_LIMIT, and takes more once one is unfollowed`, async () => {
      const member = await registerUser(t.http);
      const names = Array.from({ length: FOLLOW_CAP + 1 }, (_, i) => `cap-${i}`);
      await t.db.query(`INSERT INTO performers (id, name) SELECT x, x FROM unnest($1::varchar[]) AS x`, [names]);
      await t.db.query(
        `INSERT INTO performer_follows (user_id, performer_id) SELECT $1, x FROM unnest($2::varchar[]) AS x`,
        [member.id, names.slice(0, FOLLOW_CAP)],
      );
      const res = await follow(member, names[FOLLOW_CAP]).expect(409);
      expect(res.body).toEqual({ error: `You can follow at most ${FOLLOW_CAP} performers: unfollow one first`, statusCode: 409, errorCode: 'FOLLOW_LIMIT' });
      // Following one already followed is still fine at the cap.
      await follow(member, names[0]).expect(200);
      await unfollow(member, names[0]).expect(200);
      await follow(member, names[FOLLOW_CAP]).expect(200);
      expect((await list(member)).data).toHaveLength(FOLLOW_CAP);
    });
  });

  describe('the feed at any size of the set followed', () => {
    const cast = ['Eli Fox', 'Finn Gray', 'Gus Hale', 'Hal Ives', 'Ike Jones', 'Jon Kane', 'Kit Lowe', 'Lev Marsh'];
    const slugs = cast.map((name) => name.toLowerCase().replace(' ', '-'));

    beforeAll(async () => {
      // 60 videos, each with one to three of the cast, upload dates with ties; a few unpublished.
      let state = 7;
      const next = () => (state = (state * 48271) % 2147483647);
      for (let i = 0; i < 60; i++) {
        const performers = [...new Set(Array.from({ length: 1 + (next() % 3) }, () => cast[next() % cast.length]))];
        await insertVideo(t.db, { title: `Cast video ${i}`, performers, upload_date: day(1 + (next() % 20)), status: i % 13 === 0 ? 'processing' : 'ready' });
      }
    });

    /** The feed as plain SQL says it is: every page, compared with what the API pages. */
    async function expected(set: string[]): Promise<number[]> {
      const rows = await t.db.query<{ id: number }[]>(
        `SELECT v.id FROM videos v WHERE v.status = 'ready' AND v.id IN (SELECT video_id FROM video_performers WHERE performer_id = ANY($1::varchar[]))
         ORDER BY v.upload_date DESC, v.id DESC`,
        [set],
      );
      return rows.map((row) => Number(row.id));
    }

    it.each([
      ['one performer', slugs.slice(0, 1)],
      ['two performers', slugs.slice(2, 4)],
      ['the whole cast (videos with several of them)', slugs],
    ])('pages %s exactly as SQL orders it, each video once', async (_label, set) => {
      const member = await registerUser(t.http);
      for (const id of set) await follow(member, id).expect(200);
      const want = await expected(set);
      expect(want.length).toBeGreaterThan(5);
      const got: number[] = [];
      for (let page = 1; page <= Math.ceil(want.length / 7) + 1; page++) {
        const body = await feed(member, `?page=${page}&limit=7`);
        expect(body.total).toBe(want.length);
        got.push(...body.data.map((v: { id: number }) => v.id));
      }
      expect(got).toEqual(want);
    });
  });
});
