import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerUser, TestApp, TestUser } from './helpers/test-app';

const CARD_KEYS = [
  'atg_title', 'cdn', 'duration', 'featured', 'id', 'jtg_title', 'likes', 'preview', 'slug', 'thumbnail', 'title', 'upload_date', 'url', 'views',
].sort();
const UNKNOWN_VIDEO = 999_999;
const ids = (cards: { id: number }[]) => cards.map((c) => c.id);

describe('Lists (e2e)', () => {
  let t: TestApp;
  let v1: number;
  let v2: number;
  let v3: number;
  let hidden: number;
  /** Sends only requests that must be refused: a list of theirs that is not empty is a failure. */
  let refused: TestUser;

  /** A user's rows in one of the list tables, as video ids. */
  const stored = async (table: string, user: TestUser): Promise<number[]> =>
    (await t.db.query<{ video_id: number }[]>(`SELECT video_id FROM ${table} WHERE user_id = $1 ORDER BY video_id`, [user.id])).map((r) =>
      Number(r.video_id),
    );
  /** Backdates a user's list entry so that "newest first" is known without waiting. */
  const backdate = (table: string, column: string, user: TestUser, videoId: number, iso: string) =>
    t.db.query(`UPDATE ${table} SET ${column} = $3 WHERE user_id = $1 AND video_id = $2`, [user.id, videoId, iso]);

  beforeAll(async () => {
    t = await createTestApp();
    v1 = await insertVideo(t.db, { title: 'Morning Run', views: 10, likes: 2, duration: 300 });
    v2 = await insertVideo(t.db, { title: 'Evening Swim' });
    v3 = await insertVideo(t.db, { title: 'Night Hike' });
    hidden = await insertVideo(t.db, { title: 'Still Encoding', status: 'processing' });
    refused = await registerUser(t.http);
  });
  afterAll(() => t.close());

  describe('POST /api/video/add-history', () => {
    it('records a watch and answers 204 with no body', async () => {
      const me = await registerUser(t.http);
      const res = await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v1, userId: me.id }).expect(204);
      expect(res.text).toBe('');
      expect(await stored('history_entries', me)).toEqual([v1]);
    });

    it('moves the last watched time to now on a repeat watch, keeping one entry', async () => {
      const me = await registerUser(t.http);
      await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v1 }).expect(204);
      await backdate('history_entries', 'watched_at', me, v1, '2020-01-01T00:00:00Z');
      const before = Date.now();
      await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v1, userId: me.id }).expect(204);
      const rows = await t.db.query<{ watched_at: Date }[]>(`SELECT watched_at FROM history_entries WHERE user_id = $1`, [me.id]);
      expect(rows).toHaveLength(1);
      expect(new Date(rows[0].watched_at).getTime()).toBeGreaterThan(before - 60_000);
    });

    it('records nothing while the history is paused, still answering 204', async () => {
      const me = await registerUser(t.http);
      await t.db.query(`UPDATE users SET history_paused = true WHERE id = $1`, [me.id]);
      await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v1, userId: me.id }).expect(204);
      expect(await stored('history_entries', me)).toEqual([]);
    });

    it('accepts and ignores the video object the client sends along', async () => {
      const me = await registerUser(t.http);
      await request(t.http)
        .post('/api/video/add-history')
        .set(bearer(me))
        .send({ videoId: v2, userId: me.id, video: { id: v3, title: 'Night Hike', categories: [{ id: 'x', name: 'X' }] } })
        .expect(204);
      expect(await stored('history_entries', me)).toEqual([v2]);
    });

    it('answers 404 "Video not found" for an unknown or unpublished video', async () => {
      const me = await registerUser(t.http);
      for (const videoId of [UNKNOWN_VIDEO, hidden]) {
        const res = await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId }).expect(404);
        expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
      }
      expect(await stored('history_entries', me)).toEqual([]);
    });

    it("refuses a history entry for another user's id and records nothing", async () => {
      const me = await registerUser(t.http);
      const other = await registerUser(t.http);
      const res = await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v1, userId: other.id }).expect(403);
      expect(res.body).toEqual({ error: 'You can only change your own lists', statusCode: 403 });
      expect(await stored('history_entries', me)).toEqual([]);
      expect(await stored('history_entries', other)).toEqual([]);
    });

    it.each([
      ['videoId as a string', { videoId: '12' }, /videoId must be a positive integer/],
      ['videoId 0', { videoId: 0 }, /videoId must be a positive integer/],
      ['no videoId', {}, /videoId must be a positive integer/],
      ['a numeric userId', { videoId: 1, userId: 42 }, /userId must be a string/],
      ['an extra field', { videoId: 1, watchedAt: '2020-01-01' }, /property watchedAt should not exist/],
    ])('answers 400 in the error shape for %s', async (_case, body, message) => {
      const me = refused;
      const res = await request(t.http).post('/api/video/add-history').set(bearer(me)).send(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
      expect(await stored('history_entries', me)).toEqual([]);
    });
  });

  describe('POST /api/video/get-bookmarks', () => {
    it('answers the bookmarked cards newest first, leaving out unpublished videos', async () => {
      const me = await registerUser(t.http);
      for (const videoId of [v1, v2, v3, hidden]) {
        await t.db.query(`INSERT INTO bookmarks (user_id, video_id) VALUES ($1, $2)`, [me.id, videoId]);
      }
      await backdate('bookmarks', 'created_at', me, v1, '2024-01-02T00:00:00Z');
      await backdate('bookmarks', 'created_at', me, v2, '2024-01-01T00:00:00Z');
      await backdate('bookmarks', 'created_at', me, v3, '2024-01-03T00:00:00Z');
      const res = await request(t.http).post('/api/video/get-bookmarks').set(bearer(me)).send({ userId: me.id }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['bookmarks', 'error']);
      expect(res.body.error).toBeNull();
      expect(ids(res.body.bookmarks)).toEqual([v3, v1, v2]);
      expect(Object.keys(res.body.bookmarks[1]).sort()).toEqual(CARD_KEYS);
      expect(res.body.bookmarks[1]).toMatchObject({ id: v1, title: 'Morning Run', views: 10, likes: 2, duration: 300 });
    });

    it('answers only the caller’s own bookmarks, with or without userId', async () => {
      const me = await registerUser(t.http);
      const other = await registerUser(t.http);
      await t.db.query(`INSERT INTO bookmarks (user_id, video_id) VALUES ($1, $2), ($3, $4)`, [me.id, v1, other.id, v2]);
      const res = await request(t.http).post('/api/video/get-bookmarks').set(bearer(me)).send({}).expect(200);
      expect(res.body).toEqual({ bookmarks: [expect.objectContaining({ id: v1 })], error: null });
    });

    it('answers an empty list for a user with no bookmarks', async () => {
      const me = await registerUser(t.http);
      const res = await request(t.http).post('/api/video/get-bookmarks').set(bearer(me)).send({ userId: me.id }).expect(200);
      expect(res.body).toEqual({ bookmarks: [], error: null });
    });

    it("refuses to read another user's bookmarks", async () => {
      const me = await registerUser(t.http);
      const other = await registerUser(t.http);
      await t.db.query(`INSERT INTO bookmarks (user_id, video_id) VALUES ($1, $2)`, [other.id, v1]);
      const res = await request(t.http).post('/api/video/get-bookmarks').set(bearer(me)).send({ userId: other.id }).expect(403);
      expect(res.body).toEqual({ error: 'You can only change your own lists', statusCode: 403 });
    });

    it.each([
      ['a numeric userId', { userId: 7 }, /userId must be a string/],
      ['an extra field', { limit: 5 }, /property limit should not exist/],
    ])('answers 400 in the error shape for %s', async (_case, body, message) => {
      const me = refused;
      const res = await request(t.http).post('/api/video/get-bookmarks').set(bearer(me)).send(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
    });
  });

  describe.each([
    ['/api/video/add-to-bookmarks', 'bookmarks', 'bookmarked'],
    ['/api/video/add-to-watch-later', 'watch_later_items', 'queued'],
  ])('POST %s', (path, table, flag) => {
    it('adds the video and answers the new state', async () => {
      const me = await registerUser(t.http);
      const res = await request(t.http).post(path).set(bearer(me)).send({ videoId: v1, userId: me.id, action: 'create' }).expect(200);
      expect(res.body).toEqual({ [flag]: true, error: null });
      expect(await stored(table, me)).toEqual([v1]);
    });

    it('is idempotent both ways: create twice keeps one entry, delete twice leaves none', async () => {
      const me = await registerUser(t.http);
      for (let i = 0; i < 2; i++) {
        const res = await request(t.http).post(path).set(bearer(me)).send({ videoId: v2, userId: me.id, action: 'create' }).expect(200);
        expect(res.body).toEqual({ [flag]: true, error: null });
      }
      expect(await stored(table, me)).toEqual([v2]);
      for (let i = 0; i < 2; i++) {
        const res = await request(t.http).post(path).set(bearer(me)).send({ videoId: v2, userId: me.id, action: 'delete' }).expect(200);
        expect(res.body).toEqual({ [flag]: false, error: null });
      }
      expect(await stored(table, me)).toEqual([]);
    });

    it('removes only that video, and only for the caller', async () => {
      const me = await registerUser(t.http);
      const other = await registerUser(t.http);
      await t.db.query(`INSERT INTO ${table} (user_id, video_id) VALUES ($1, $2), ($1, $3), ($4, $2)`, [me.id, v1, v2, other.id]);
      await request(t.http).post(path).set(bearer(me)).send({ videoId: v1, action: 'delete' }).expect(200);
      expect(await stored(table, me)).toEqual([v2]);
      expect(await stored(table, other)).toEqual([v1]);
    });

    it('accepts and ignores the video object the client sends along', async () => {
      const me = await registerUser(t.http);
      await request(t.http).post(path).set(bearer(me)).send({ video: { id: v3, title: 'x' }, videoId: v1, userId: me.id, action: 'create' }).expect(200);
      expect(await stored(table, me)).toEqual([v1]);
    });

    it('answers 404 "Video not found" when adding an unknown or unpublished video, and stores nothing', async () => {
      const me = await registerUser(t.http);
      for (const videoId of [UNKNOWN_VIDEO, hidden]) {
        const res = await request(t.http).post(path).set(bearer(me)).send({ videoId, action: 'create' }).expect(404);
        expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
      }
      expect(await stored(table, me)).toEqual([]);
    });

    it('answers 200 with the removed state when deleting a video that does not exist', async () => {
      const me = await registerUser(t.http);
      const res = await request(t.http).post(path).set(bearer(me)).send({ videoId: UNKNOWN_VIDEO, action: 'delete' }).expect(200);
      expect(res.body).toEqual({ [flag]: false, error: null });
    });

    it("refuses a change for another user's id and changes nothing for either user", async () => {
      const me = await registerUser(t.http);
      const other = await registerUser(t.http);
      await t.db.query(`INSERT INTO ${table} (user_id, video_id) VALUES ($1, $2)`, [other.id, v1]);
      for (const action of ['create', 'delete']) {
        const res = await request(t.http).post(path).set(bearer(me)).send({ videoId: v1, userId: other.id, action }).expect(403);
        expect(res.body).toEqual({ error: 'You can only change your own lists', statusCode: 403 });
      }
      expect(await stored(table, me)).toEqual([]);
      expect(await stored(table, other)).toEqual([v1]);
    });

    it.each([
      ['action "toggle"', { videoId: 1, action: 'toggle' }, /action must be "create" or "delete"/],
      ['action "CREATE"', { videoId: 1, action: 'CREATE' }, /action must be "create" or "delete"/],
      ['no action', { videoId: 1 }, /action must be "create" or "delete"/],
      ['videoId as a string', { videoId: '12', action: 'create' }, /videoId must be a positive integer/],
      ['videoId 1.5', { videoId: 1.5, action: 'create' }, /videoId must be a positive integer/],
      ['a numeric userId', { videoId: 1, userId: 3, action: 'create' }, /userId must be a string/],
      ['an extra field', { videoId: 1, action: 'create', note: 'hi' }, /property note should not exist/],
    ])('answers 400 in the error shape for %s and stores nothing', async (_case, body, message) => {
      const me = refused;
      const res = await request(t.http).post(path).set(bearer(me)).send(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
      expect(await stored(table, me)).toEqual([]);
    });
  });

  describe.each([
    ['/api/me/bookmarks', 'bookmarks', 'created_at'],
    ['/api/me/watch-later', 'watch_later_items', 'created_at'],
    ['/api/me/likes', 'likes', 'created_at'],
    ['/api/me/history', 'history_entries', 'watched_at'],
  ])('GET %s', (path, table, column) => {
    let me: TestUser;

    beforeAll(async () => {
      me = await registerUser(t.http);
      const other = await registerUser(t.http);
      for (const [videoId, at] of [[v1, '2024-03-02T10:00:00Z'], [v2, '2024-03-01T10:00:00Z'], [v3, '2024-03-03T10:00:00Z'], [hidden, '2024-03-04T10:00:00Z']] as const) {
        await t.db.query(`INSERT INTO ${table} (user_id, video_id, ${column}) VALUES ($1, $2, $3)`, [me.id, videoId, at]);
      }
      await t.db.query(`INSERT INTO ${table} (user_id, video_id) VALUES ($1, $2)`, [other.id, v2]);
    });

    it('pages the caller’s published videos newest first with page, limit and total', async () => {
      const first = await request(t.http).get(`${path}?limit=2`).set(bearer(me)).expect(200);
      expect(Object.keys(first.body).sort()).toEqual(['data', 'limit', 'page', 'total']);
      expect(first.body).toMatchObject({ page: 1, limit: 2, total: 3 });
      expect(ids(first.body.data)).toEqual([v3, v1]);
      const second = await request(t.http).get(`${path}?limit=2&page=2`).set(bearer(me)).expect(200);
      expect(second.body).toMatchObject({ page: 2, limit: 2, total: 3 });
      expect(ids(second.body.data)).toEqual([v2]);
    });

    it('answers video cards with the contract fields', async () => {
      const res = await request(t.http).get(path).set(bearer(me)).expect(200);
      expect(res.body).toMatchObject({ page: 1, limit: 24, total: 3 });
      const card = res.body.data.find((c: { id: number }) => c.id === v1);
      const extra = path === '/api/me/history' ? ['watched_at'] : [];
      expect(Object.keys(card).sort()).toEqual([...CARD_KEYS, ...extra].sort());
      expect(card).toMatchObject({ id: v1, title: 'Morning Run', views: 10, likes: 2 });
    });

    it('answers an empty page for a user whose list is empty', async () => {
      const fresh = await registerUser(t.http);
      const res = await request(t.http).get(path).set(bearer(fresh)).expect(200);
      expect(res.body).toEqual({ data: [], page: 1, limit: 24, total: 0 });
    });

    it.each([
      ['page=0', /page must not be less than 1/],
      ['limit=61', /limit must not be greater than 60/],
      ['limit=abc', /limit must be a whole number/],
      ['userId=someone', /property userId should not exist/],
    ])('answers 400 in the error shape for %s', async (query, message) => {
      const res = await request(t.http).get(`${path}?${query}`).set(bearer(me)).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
    });
  });

  describe('history listing', () => {
    it('carries watched_at as an ISO time and orders by it, a repeat watch moving a video to the top', async () => {
      const me = await registerUser(t.http);
      for (const videoId of [v1, v2, v3]) {
        await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId }).expect(204);
      }
      await backdate('history_entries', 'watched_at', me, v1, '2024-05-01T08:00:00Z');
      await backdate('history_entries', 'watched_at', me, v2, '2024-05-03T08:00:00Z');
      await backdate('history_entries', 'watched_at', me, v3, '2024-05-02T08:00:00Z');
      const before = await request(t.http).get('/api/me/history').set(bearer(me)).expect(200);
      expect(ids(before.body.data)).toEqual([v2, v3, v1]);
      expect(before.body.data[0].watched_at).toBe('2024-05-03T08:00:00.000Z');

      await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v1 }).expect(204);
      const after = await request(t.http).get('/api/me/history').set(bearer(me)).expect(200);
      expect(ids(after.body.data)).toEqual([v1, v2, v3]);
      expect(Date.parse(after.body.data[0].watched_at)).toBeGreaterThan(Date.parse('2024-05-03T08:00:00Z'));
      expect(after.body.total).toBe(3);
    });
  });

  describe('likes listing', () => {
    it('lists a like made on the watch page, with the like counted on the card before any flush', async () => {
      const me = await registerUser(t.http);
      const video = await insertVideo(t.db, { title: 'Liked Today', likes: 5 });
      await request(t.http).post('/api/video/increment-likes').set(bearer(me)).send({ videoId: video }).expect(200);
      const res = await request(t.http).get('/api/me/likes').set(bearer(me)).expect(200);
      expect(res.body).toMatchObject({ total: 1, data: [{ id: video, likes: 6 }] });
    });
  });

  describe('DELETE /api/me/history', () => {
    it("clears the caller's history and no one else's", async () => {
      const me = await registerUser(t.http);
      const other = await registerUser(t.http);
      await t.db.query(`INSERT INTO history_entries (user_id, video_id) VALUES ($1, $2), ($1, $3), ($4, $3)`, [me.id, v1, v2, other.id]);
      const res = await request(t.http).delete('/api/me/history').set(bearer(me)).expect(204);
      expect(res.text).toBe('');
      expect(await stored('history_entries', me)).toEqual([]);
      expect(await stored('history_entries', other)).toEqual([v2]);
      const list = await request(t.http).get('/api/me/history').set(bearer(me)).expect(200);
      expect(list.body).toEqual({ data: [], page: 1, limit: 24, total: 0 });
    });

    it('answers 204 when there is nothing to clear', async () => {
      const me = await registerUser(t.http);
      await request(t.http).delete('/api/me/history').set(bearer(me)).expect(204);
    });
  });

  describe('PUT /api/me/history/paused', () => {
    const paused = async (user: TestUser) =>
      (await t.db.query<{ history_paused: boolean }[]>(`SELECT history_paused FROM users WHERE id = $1`, [user.id]))[0].history_paused;

    it('pauses the history, so watching records nothing, and resumes it', async () => {
      const me = await registerUser(t.http);
      const on = await request(t.http).put('/api/me/history/paused').set(bearer(me)).send({ paused: true }).expect(200);
      expect(on.body).toEqual({ paused: true });
      expect(await paused(me)).toBe(true);
      await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v1 }).expect(204);
      expect(await stored('history_entries', me)).toEqual([]);

      const off = await request(t.http).put('/api/me/history/paused').set(bearer(me)).send({ paused: false }).expect(200);
      expect(off.body).toEqual({ paused: false });
      expect(await paused(me)).toBe(false);
      await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v1 }).expect(204);
      expect(await stored('history_entries', me)).toEqual([v1]);
    });

    it('reads the current state back from GET /api/me/history/paused', async () => {
      const me = await registerUser(t.http);
      expect((await request(t.http).get('/api/me/history/paused').set(bearer(me)).expect(200)).body).toEqual({ paused: false });
      await request(t.http).put('/api/me/history/paused').set(bearer(me)).send({ paused: true }).expect(200);
      expect((await request(t.http).get('/api/me/history/paused').set(bearer(me)).expect(200)).body).toEqual({ paused: true });
      const other = await registerUser(t.http);
      expect((await request(t.http).get('/api/me/history/paused').set(bearer(other)).expect(200)).body).toEqual({ paused: false });
    });

    it('keeps the history already recorded when pausing', async () => {
      const me = await registerUser(t.http);
      await request(t.http).post('/api/video/add-history').set(bearer(me)).send({ videoId: v2 }).expect(204);
      await request(t.http).put('/api/me/history/paused').set(bearer(me)).send({ paused: true }).expect(200);
      expect(await stored('history_entries', me)).toEqual([v2]);
    });

    it.each([
      ['paused "yes"', { paused: 'yes' }],
      ['paused "true" as a string', { paused: 'true' }],
      ['paused 1', { paused: 1 }],
      ['no paused', {}],
      ['an extra field', { paused: true, userId: 'x' }],
    ])('answers 400 in the error shape for %s and changes nothing', async (_case, body) => {
      const me = refused;
      const res = await request(t.http).put('/api/me/history/paused').set(bearer(me)).send(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(/paused must be true or false|property userId should not exist/), statusCode: 400 });
      expect(await paused(me)).toBe(false);
    });
  });

  it('documents every route as signed-in only in the OpenAPI document', async () => {
    const doc = (await request(t.http).get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    };
    for (const [method, path, status] of [
      ['post', '/api/video/add-history', '204'],
      ['post', '/api/video/get-bookmarks', '200'],
      ['post', '/api/video/add-to-bookmarks', '200'],
      ['post', '/api/video/add-to-watch-later', '200'],
      ['get', '/api/me/watch-later', '200'],
      ['get', '/api/me/history', '200'],
      ['get', '/api/me/likes', '200'],
      ['get', '/api/me/bookmarks', '200'],
      ['delete', '/api/me/history', '204'],
      ['put', '/api/me/history/paused', '200'],
      ['get', '/api/me/history/paused', '200'],
    ]) {
      const op = doc.paths[path]?.[method];
      expect({ path, method, documented: !!op }).toEqual({ path, method, documented: true });
      expect(op.security).toEqual(expect.arrayContaining([{ bearer: [] }]));
      expect(Object.keys(op.responses)).toContain(status);
    }
  });

  describe('without a token', () => {
    it.each([
      ['post', '/api/video/add-history', { videoId: 1 }],
      ['post', '/api/video/get-bookmarks', {}],
      ['post', '/api/video/add-to-bookmarks', { videoId: 1, action: 'create' }],
      ['post', '/api/video/add-to-watch-later', { videoId: 1, action: 'create' }],
      ['get', '/api/me/watch-later', undefined],
      ['get', '/api/me/history', undefined],
      ['get', '/api/me/likes', undefined],
      ['get', '/api/me/bookmarks', undefined],
      ['delete', '/api/me/history', undefined],
      ['put', '/api/me/history/paused', { paused: true }],
      ['get', '/api/me/history/paused', undefined],
    ] as const)('answers 401 for %s %s and changes nothing', async (method, path, body) => {
      const [{ n: before }] = await t.db.query<{ n: number }[]>(
        `SELECT (SELECT count(*) FROM bookmarks) + (SELECT count(*) FROM watch_later_items) + (SELECT count(*) FROM history_entries)
           + (SELECT count(*) FROM users WHERE history_paused) AS n`,
      );
      const req = request(t.http)[method](path);
      const res = await (body === undefined ? req : req.send(body));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), statusCode: 401 });
      const [{ n: after }] = await t.db.query<{ n: number }[]>(
        `SELECT (SELECT count(*) FROM bookmarks) + (SELECT count(*) FROM watch_later_items) + (SELECT count(*) FROM history_entries)
           + (SELECT count(*) FROM users WHERE history_paused) AS n`,
      );
      expect(Number(after)).toBe(Number(before));
    });

    it('answers 401 for a forged token', async () => {
      const res = await request(t.http).get('/api/me/bookmarks').set({ Authorization: 'Bearer not.a.token' }).expect(401);
      expect(res.body).toEqual({ error: expect.any(String), statusCode: 401 });
    });
  });
});
