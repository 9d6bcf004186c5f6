import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

const POSITION_MESSAGE = 'position must be a whole number of seconds from 0 to 86400, or null';
const CARD_KEYS = ['atg_title', 'cdn', 'duration', 'featured', 'id', 'jtg_title', 'likes', 'preview', 'slug', 'thumbnail', 'title', 'upload_date', 'url', 'views'];

describe('Continue watching (e2e)', () => {
  let t: TestApp;
  let ann: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    ann = await registerUser(t.http);
    bob = await registerUser(t.http);
    admin = await registerAdmin(t);
    ids.a = await insertVideo(t.db, { title: 'Pool party', duration: 600 });
    ids.b = await insertVideo(t.db, { title: 'Locker room', duration: 300 });
    ids.c = await insertVideo(t.db, { title: 'Unknown length', duration: null });
    ids.d = await insertVideo(t.db, { title: 'Short one', duration: 60 });
    ids.hidden = await insertVideo(t.db, { title: 'Still processing', status: 'processing' });
  });
  afterAll(() => t.close());

  const save = (user: TestUser | null, videoId: number | string, body: unknown) => {
    const req = request(t.http).put(`/api/me/history/${videoId}/position`);
    return (user ? req.set(bearer(user)) : req).send(body as object);
  };
  const row = (user: TestUser, query = '') =>
    request(t.http).get(`/api/me/continue-watching${query}`).set(bearer(user)).expect(200).then((r) => r.body);
  const rowIds = async (user: TestUser) => (await row(user)).data.map((v: { id: number }) => v.id);
  const historyIds = async (user: TestUser) =>
    (await request(t.http).get('/api/me/history').set(bearer(user)).expect(200)).body.data.map((v: { id: number }) => v.id);

  it('starts empty', async () => {
    expect(await row(ann)).toEqual({ data: [], paused: false });
  });

  it('records a position, and the video leads the row and the history with its card, time and position', async () => {
    expect((await save(ann, ids.a, { position: 125 }).expect(200)).body).toEqual({ recorded: true, position: 125 });
    expect((await save(ann, ids.b, { position: 40 }).expect(200)).body).toEqual({ recorded: true, position: 40 });
    const { data, paused } = await row(ann);
    expect(paused).toBe(false);
    expect(data.map((v: { id: number }) => v.id)).toEqual([ids.b, ids.a]);
    expect(data[1]).toMatchObject({ id: ids.a, title: 'Pool party', duration: 600, position_seconds: 125 });
    expect(Object.keys(data[0]).sort()).toEqual([...CARD_KEYS, 'position_seconds', 'watched_at'].sort());
    expect(Date.parse(data[0].watched_at)).toBeGreaterThanOrEqual(Date.parse(data[1].watched_at));
    expect(await historyIds(ann)).toEqual([ids.b, ids.a]);
  });

  it('moves a video to the front when its position changes, keeping one entry per video', async () => {
    await save(ann, ids.a, { position: 200 }).expect(200);
    const { data } = await row(ann);
    expect(data.map((v: { id: number; position_seconds: number }) => [v.id, v.position_seconds])).toEqual([[ids.a, 200], [ids.b, 40]]);
  });

  it('keeps any position of a video whose length is unknown', async () => {
    expect((await save(ann, ids.c, { position: 5000 }).expect(200)).body).toEqual({ recorded: true, position: 5000 });
    expect(await rowIds(ann)).toEqual([ids.c, ids.a, ids.b]);
  });

  it('drops a finished video: null, or a position in its last five seconds; it stays in the history', async () => {
    expect((await save(ann, ids.c, { position: null }).expect(200)).body).toEqual({ recorded: true, position: null });
    expect((await save(ann, ids.b, { position: 296 }).expect(200)).body).toEqual({ recorded: true, position: null });
    expect(await rowIds(ann)).toEqual([ids.a]);
    expect(await historyIds(ann)).toEqual([ids.b, ids.c, ids.a]);
  });

  it('does not count a video not started (under a second)', async () => {
    expect((await save(ann, ids.d, { position: 0 }).expect(200)).body).toEqual({ recorded: true, position: null });
    expect(await rowIds(ann)).toEqual([ids.a]);
  });

  it('keeps each member’s positions their own', async () => {
    await save(bob, ids.b, { position: 10 }).expect(200);
    expect(await rowIds(bob)).toEqual([ids.b]);
    expect(await rowIds(ann)).toEqual([ids.a]);
    // Bob taking a video out of his row touches nothing of Ann's.
    await request(t.http).delete(`/api/me/continue-watching/${ids.a}`).set(bearer(bob)).expect(204);
    expect(await rowIds(ann)).toEqual([ids.a]);
  });

  it('takes a video out of the row on request, idempotently, leaving it in the history', async () => {
    await save(ann, ids.d, { position: 30 }).expect(200);
    expect(await rowIds(ann)).toEqual([ids.d, ids.a]);
    await request(t.http).delete(`/api/me/continue-watching/${ids.d}`).set(bearer(ann)).expect(204);
    await request(t.http).delete(`/api/me/continue-watching/${ids.d}`).set(bearer(ann)).expect(204);
    await request(t.http).delete('/api/me/continue-watching/999999').set(bearer(ann)).expect(204);
    expect(await rowIds(ann)).toEqual([ids.a]);
    expect(await historyIds(ann)).toContain(ids.d);
  });

  it('honours limit (default 12, at most 24)', async () => {
    const member = await registerUser(t.http);
    for (let i = 0; i < 14; i += 1) await save(member, await insertVideo(t.db, { duration: 100 }), { position: 50 }).expect(200);
    expect((await row(member)).data).toHaveLength(12);
    expect((await row(member, '?limit=3')).data).toHaveLength(3);
    expect((await row(member, '?limit=24')).data).toHaveLength(14);
  });

  it('respects the paused history: nothing recorded, no row; the row is back as it was on resuming', async () => {
    await request(t.http).put('/api/me/history/paused').set(bearer(ann)).send({ paused: true }).expect(200);
    expect((await save(ann, ids.b, { position: 90 }).expect(200)).body).toEqual({ recorded: false, position: 90 });
    expect(await row(ann)).toEqual({ data: [], paused: true });
    await request(t.http).put('/api/me/history/paused').set(bearer(ann)).send({ paused: false }).expect(200);
    expect(await rowIds(ann)).toEqual([ids.a]);
  });

  it('empties with the history', async () => {
    const member = await registerUser(t.http);
    await save(member, ids.a, { position: 12 }).expect(200);
    await request(t.http).delete('/api/me/history').set(bearer(member)).expect(204);
    expect(await row(member)).toEqual({ data: [], paused: false });
  });

  it('drops a video that is deleted', async () => {
    const member = await registerUser(t.http);
    const doomed = await insertVideo(t.db, { title: 'Doomed', duration: 300 });
    await save(member, doomed, { position: 100 }).expect(200);
    await save(member, ids.a, { position: 100 }).expect(200);
    expect(await rowIds(member)).toEqual([ids.a, doomed]);
    await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: doomed }).expect(200);
    expect(await rowIds(member)).toEqual([ids.a]);
  });

  describe('refusals', () => {
    it('answers 401 without a session, for every route', async () => {
      await request(t.http).get('/api/me/continue-watching').expect(401);
      await save(null, ids.a, { position: 10 }).expect(401);
      await request(t.http).delete(`/api/me/continue-watching/${ids.a}`).expect(401);
    });

    it('answers 404 for a video that does not exist or is not published, recording nothing', async () => {
      for (const id of [999999, ids.hidden]) {
        const res = await save(bob, id, { position: 10 }).expect(404);
        expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
      }
      expect(await historyIds(bob)).toEqual([ids.b]);
    });

    it.each(['0', '-1', 'abc', '1.5', '99999999999'])('answers 400 for the video id %j', async (id) => {
      const res = await save(bob, id, { position: 10 }).expect(400);
      expect(res.body).toEqual({ error: 'videoId must be a positive integer', statusCode: 400 });
      await request(t.http).delete(`/api/me/continue-watching/${id}`).set(bearer(bob)).expect(400);
    });

    it.each([
      ['a missing position', {}],
      ['a string', { position: '10' }],
      ['a fraction', { position: 10.5 }],
      ['a negative number', { position: -1 }],
      ['more than a day', { position: 86_401 }],
      ['a boolean', { position: true }],
    ])('answers 400 for %s, changing nothing', async (_name, body) => {
      const res = await save(bob, ids.b, body).expect(400);
      expect(res.body).toEqual({ error: POSITION_MESSAGE, statusCode: 400 });
      expect((await row(bob)).data).toEqual([expect.objectContaining({ id: ids.b, position_seconds: 10 })]);
    });

    it('answers 400 for extra fields and a bad limit', async () => {
      await save(bob, ids.b, { position: 20, userId: bob.id }).expect(400);
      for (const query of ['?limit=0', '?limit=25', '?limit=abc', '?page=2']) {
        await request(t.http).get(`/api/me/continue-watching${query}`).set(bearer(bob)).expect(400);
      }
      expect((await row(bob)).data[0].position_seconds).toBe(10);
    });
  });
});

describe('GET /api/cards (e2e)', () => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    ids.a = await insertVideo(t.db, { title: 'First' });
    ids.b = await insertVideo(t.db, { title: 'Second' });
    ids.hidden = await insertVideo(t.db, { title: 'Hidden', status: 'failed' });
  });
  afterAll(() => t.close());

  const cards = (query: string) => request(t.http).get(`/api/cards${query}`);

  it('answers the published cards in the order asked, each once, leaving out what is gone', async () => {
    const res = await cards(`?ids=${ids.b},${ids.hidden},999999,${ids.a},${ids.b},9999999999`).expect(200);
    expect(res.body.data.map((v: { id: number }) => v.id)).toEqual([ids.b, ids.a]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(CARD_KEYS);
    expect(res.headers['cache-control']).toMatch(/^public/);
  });

  it('needs no session', async () => {
    expect((await cards(`?ids=${ids.a}`).expect(200)).body).toEqual({ data: [expect.objectContaining({ id: ids.a, title: 'First' })] });
  });

  it.each(['', '?ids=', '?ids=a', '?ids=1,,2', '?ids=0', '?ids=-1', '?ids=1.5', `?ids=${Array.from({ length: 25 }, (_, i) => i + 1).join(',')}`])(
    'answers 400 for %j',
    async (query) => {
      const res = await cards(query).expect(400);
      expect(res.body).toEqual({ error: 'ids must be 1 to 24 video ids separated by commas', statusCode: 400 });
    },
  );

  it('answers 400 for another parameter', async () => {
    await cards(`?ids=${ids.a}&extra=1`).expect(400);
  });
});
