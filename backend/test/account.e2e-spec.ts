import request from 'supertest';
import { AdEventsService } from '../src/ads/ad-events.service';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

const PASSWORD = 'correct horse battery';
/** Every table that holds something of a member, with the column naming them. */
const PERSONAL: [string, string][] = [
  ['users', 'id'],
  ['sessions', 'user_id'],
  ['bookmarks', 'user_id'],
  ['watch_later_items', 'user_id'],
  ['likes', 'user_id'],
  ['history_entries', 'user_id'],
  ['hidden_topics', 'user_id'],
  ['performer_follows', 'user_id'],
  ['playlists', 'user_id'],
  ['ad_member_impressions', 'user_id'],
];

describe('Export and delete an account (e2e)', () => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    // A capped zone shown to members: their impressions are kept for the cap.
    const admin = await registerAdmin(t);
    const zone = await request(t.http)
      .post('/api/admin/ad-zones')
      .set(bearer(admin))
      .send({ name: 'Member pre-roll', placement: 'preroll', kind: 'vast', vastUrl: 'https://ads.example/vast', brands: ['default'], members: true, frequencyCap: { count: 3, hours: 24 } })
      .expect(201);
    ids.zone = zone.body.id;
    ids.pool = await insertVideo(t.db, { title: 'Pool party', performers: ['Alex Stone'], views: 40, likes: 7, duration: 600 });
    ids.locker = await insertVideo(t.db, { title: 'Locker room', views: 10, likes: 2 });
    ids.hidden = await insertVideo(t.db, { title: 'Held back', tags: ['Feet'] });
  });
  afterAll(() => t.close());

  /** A member with something in every list, as the API builds it. */
  async function busyMember(): Promise<TestUser & { playlistId: number }> {
    const user = await registerUser(t.http, { password: PASSWORD, displayName: 'Busy Member' });
    const auth = bearer(user);
    await request(t.http).post('/api/video/add-to-bookmarks').set(auth).send({ videoId: ids.pool, userId: user.id, action: 'create' }).expect(200);
    await request(t.http).post('/api/video/add-to-watch-later').set(auth).send({ videoId: ids.locker, userId: user.id, action: 'create' }).expect(200);
    await request(t.http).post('/api/video/increment-likes').set(auth).send({ videoId: ids.pool }).expect(200);
    await request(t.http).post('/api/video/add-history').set(auth).send({ videoId: ids.locker, userId: user.id }).expect(204);
    await request(t.http).put(`/api/me/history/${ids.pool}/position`).set(auth).send({ position: 125 }).expect(200);
    await request(t.http).put('/api/me/following/alex-stone').set(auth).send({}).expect(200);
    await request(t.http).put('/api/me/hidden').set(auth).send({ categories: [], performers: [], tags: ['feet'] }).expect(200);
    await request(t.http).post(`/api/ads/${ids.zone}/events`).set(auth).send({ event: 'impression' }).expect(204);
    await t.app.get(AdEventsService).flush();
    const created = await request(t.http)
      .post('/api/playlists/create-playlist')
      .set(auth)
      .send({ video_id: ids.locker, title: 'Gym favourites', user_id: user.id, display_name: 'Busy Member' })
      .expect(201);
    const playlistId = created.body.data.playlist_id as number;
    await request(t.http).post('/api/playlists/add-to-playlist').set(auth).send({ video_id: ids.pool, playlistUserId: user.id, playlist_id: playlistId }).expect(200);
    return { ...user, playlistId };
  }

  const rowsOf = async (userId: string) => {
    const counts: Record<string, number> = {};
    for (const [table, column] of PERSONAL) {
      const [{ n }] = await t.db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [userId]);
      counts[table] = Number(n);
    }
    return counts;
  };
  const counts = async (id: number) => (await request(t.http).get(`/api/videos/${id}`).expect(200)).body as { views: number; likes: number };

  describe('GET /api/me/export', () => {
    it('sends everything the site keeps about the member as a JSON file, and nothing of anyone else', async () => {
      const me = await busyMember();
      await busyMember();
      const res = await request(t.http).get('/api/me/export').set(bearer(me)).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[a-z0-9-]+-data-\d{4}-\d\d-\d\d\.json"$/);
      expect(res.headers['cache-control']).toBe('private, no-store');

      const data = res.body;
      expect(Object.keys(data)).toEqual(['exported_at', 'site', 'account', 'bookmarks', 'watch_later', 'playlists', 'likes', 'following', 'history', 'hidden', 'ad_impressions']);
      expect(data.hidden).toEqual({ categories: [], performers: [], tags: ['feet'] });
      expect(data.ad_impressions).toEqual([{ zone_id: ids.zone, zone: 'Member pre-roll', shown_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
      expect(data.account).toEqual({
        id: me.id,
        email: me.email,
        display_name: 'Busy Member',
        role: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        history_paused: false,
        sessions: [{ started_at: expect.any(String), expires_at: expect.any(String) }],
      });
      const page = (id: number) => expect.stringMatching(new RegExp(`^https?://[^/]+/video/${id}$`));
      expect(data.bookmarks).toEqual([{ video_id: ids.pool, added_at: expect.any(String), title: 'Pool party', page: page(ids.pool) }]);
      expect(data.watch_later).toEqual([{ video_id: ids.locker, added_at: expect.any(String), title: 'Locker room', page: page(ids.locker) }]);
      expect(data.likes).toEqual([{ video_id: ids.pool, liked_at: expect.any(String), title: 'Pool party', page: page(ids.pool) }]);
      expect(data.following).toEqual([{ performer_id: 'alex-stone', name: 'Alex Stone', followed_at: expect.any(String) }]);
      expect(data.history).toEqual([
        { video_id: ids.pool, watched_at: expect.any(String), position_seconds: 125, title: 'Pool party', page: page(ids.pool) },
        { video_id: ids.locker, watched_at: expect.any(String), position_seconds: null, title: 'Locker room', page: page(ids.locker) },
      ]);
      expect(data.playlists).toEqual([
        {
          id: me.playlistId,
          title: 'Gym favourites',
          created_at: expect.any(String),
          updated_at: expect.any(String),
          videos: [
            { video_id: ids.locker, added_at: expect.any(String), title: 'Locker room', page: page(ids.locker) },
            { video_id: ids.pool, added_at: expect.any(String), title: 'Pool party', page: page(ids.pool) },
          ],
        },
      ]);
      // No secret of the account's: no password hash, no session id or token.
      const text = JSON.stringify(data);
      expect(text).not.toMatch(/argon2|password|access_token/i);
      expect(text).not.toContain(me.token);
    });

    it('keeps a list entry whose video is no longer published, under its title', async () => {
      const me = await registerUser(t.http);
      const video = await insertVideo(t.db, { title: 'Soon hidden' });
      await request(t.http).post('/api/video/add-to-bookmarks').set(bearer(me)).send({ videoId: video, userId: me.id, action: 'create' }).expect(200);
      await t.db.query(`UPDATE videos SET status = 'failed' WHERE id = $1`, [video]);
      const { body } = await request(t.http).get('/api/me/export').set(bearer(me)).expect(200);
      expect(body.bookmarks).toEqual([expect.objectContaining({ video_id: video, title: 'Soon hidden' })]);
      expect(body.likes).toEqual([]);
    });

    it('answers 401 without a session', async () => {
      await request(t.http).get('/api/me/export').expect(401);
    });
  });

  describe('DELETE /api/me/account', () => {
    const remove = (user: TestUser | null, body: unknown) => {
      const req = request(t.http).delete('/api/me/account');
      return (user ? req.set(bearer(user)) : req).send(body as object);
    };

    it('removes the account and everything personal at once, keeps the catalogue’s counts, and signs the browser out', async () => {
      const me = await busyMember();
      const other = await busyMember();
      const before = { pool: await counts(ids.pool), locker: await counts(ids.locker) };
      expect(Object.values(await rowsOf(me.id)).every((n) => n > 0)).toBe(true);

      const res = await remove(me, { password: PASSWORD }).expect(204);
      expect(String(res.headers['set-cookie'])).toMatch(/access_token=;.*Expires=Thu, 01 Jan 1970/);
      expect(res.headers['clear-site-data']).toBe('"cache", "cookies", "storage"');

      expect(await rowsOf(me.id)).toEqual(Object.fromEntries(PERSONAL.map(([table]) => [table, 0])));
      const [{ n: items }] = await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM playlist_items WHERE playlist_id = $1', [me.playlistId]);
      expect(Number(items)).toBe(0);
      // Counts are the catalogue's: the likes and views given stay.
      expect({ pool: await counts(ids.pool), locker: await counts(ids.locker) }).toEqual(before);
      // The session is over everywhere, and the password opens nothing.
      await request(t.http).get('/api/auth/me').set(bearer(me)).expect(401);
      await request(t.http).get('/api/me/export').set(bearer(me)).expect(401);
      await request(t.http).post('/api/auth/login').send({ email: me.email, password: PASSWORD }).expect(401);
      // Another member's data is untouched.
      expect(Object.values(await rowsOf(other.id)).every((n) => n > 0)).toBe(true);
      // The address is free again.
      await registerUser(t.http, { email: me.email });
    });

    it('refuses a wrong password with 403 WRONG_PASSWORD, deleting nothing', async () => {
      const me = await busyMember();
      const res = await remove(me, { password: 'not my password' }).expect(403);
      expect(res.body).toEqual({ error: 'That is not your password', errorCode: 'WRONG_PASSWORD', statusCode: 403 });
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(Object.values(await rowsOf(me.id)).every((n) => n > 0)).toBe(true);
      await request(t.http).get('/api/auth/me').set(bearer(me)).expect(200);
    });

    it.each([
      ['no password', {}],
      ['an empty password', { password: '' }],
      ['a number', { password: 12345678 }],
      ['a password too long', { password: 'x'.repeat(129) }],
      ['another field', { password: PASSWORD, userId: 'x' }],
    ])('answers 400 for %s, deleting nothing', async (_name, body) => {
      const me = await registerUser(t.http, { password: PASSWORD });
      const res = await remove(me, body).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: expect.any(String) });
      await request(t.http).get('/api/auth/me').set(bearer(me)).expect(200);
    });

    it('answers 401 without a session', async () => {
      await remove(null, { password: PASSWORD }).expect(401);
    });

    it('keeps an admin’s account: 409 ADMIN_ACCOUNT', async () => {
      const admin = await registerAdmin(t);
      const res = await remove(admin, { password: PASSWORD }).expect(409);
      expect(res.body).toEqual({ error: 'An admin account cannot be deleted from its profile', errorCode: 'ADMIN_ACCOUNT', statusCode: 409 });
      await request(t.http).get('/api/auth/me').set(bearer(admin)).expect(200);
    });
  });
});

describe('Deleting an account against guessing (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH: '1000' });
  });
  afterAll(() => t.close());

  it('counts wrong passwords as failed sign-ins: after 10, even the right one waits', async () => {
    const me = await registerUser(t.http, { password: PASSWORD });
    for (let i = 0; i < 10; i += 1) await request(t.http).delete('/api/me/account').set(bearer(me)).send({ password: `guess ${i}` }).expect(403);
    const locked = await request(t.http).delete('/api/me/account').set(bearer(me)).send({ password: PASSWORD }).expect(429);
    expect(locked.headers['retry-after']).toMatch(/^\d+$/);
    await request(t.http).get('/api/auth/me').set(bearer(me)).expect(200);
  });
});
