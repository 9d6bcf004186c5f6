import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerUser, TestApp, TestUser } from './helpers/test-app';

const TITLE_REQUIRED = 'You need to give your new playlist a title';
const TITLE_INVALID = 'Title contains invalid characters or is too short (must be at least 4 characters)';
const UNKNOWN_ID = 999_999;
const ids = (cards: { id: number }[]) => cards.map((c) => c.id);

let titleCounter = 0;
const uniqueTitle = () => `Playlist ${++titleCounter}`;

describe('Playlists (e2e)', () => {
  let t: TestApp;
  let v1: number;
  let v2: number;
  let v3: number;
  let hidden: number;
  /** Owns a playlist and sends only requests that must be refused. */
  let owner: TestUser;
  let ownersPlaylist: number;
  /** Another signed-in user, who must never reach the owner's playlist. */
  let intruder: TestUser;

  const playlistCount = async (user: TestUser) =>
    Number((await t.db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM playlists WHERE user_id = $1`, [user.id]))[0].n);
  /** The playlist's items as video ids, in playlist order, whatever their videos' state. */
  const items = async (playlistId: number) =>
    (await t.db.query<{ video_id: number }[]>(`SELECT video_id FROM playlist_items WHERE playlist_id = $1 ORDER BY position, video_id`, [playlistId])).map((r) =>
      Number(r.video_id),
    );
  const titleOf = async (playlistId: number) =>
    (await t.db.query<{ title: string }[]>(`SELECT title FROM playlists WHERE id = $1`, [playlistId]))[0]?.title;

  /** Creates a playlist through the API with `videoIds[0]`, then adds the rest in order. */
  async function playlistOf(user: TestUser, videoIds: number[], title = uniqueTitle()): Promise<number> {
    const res = await request(t.http)
      .post('/api/playlists/create-playlist')
      .set(bearer(user))
      .send({ video_id: videoIds[0], title, user_id: user.id, display_name: 'Sam' })
      .expect(201);
    const id = res.body.data.playlist_id as number;
    for (const videoId of videoIds.slice(1)) {
      await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(user)).send({ video_id: videoId, playlistUserId: user.id, playlist_id: id }).expect(200);
    }
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    v1 = await insertVideo(t.db, { title: 'Morning Run', thumbnail: '/thumbs/morning-run.jpg' });
    v2 = await insertVideo(t.db, { title: 'Evening Swim', thumbnail: '/thumbs/evening-swim.jpg' });
    v3 = await insertVideo(t.db, { title: 'Night Hike' });
    hidden = await insertVideo(t.db, { title: 'Still Encoding', status: 'processing', thumbnail: '/thumbs/hidden.jpg' });
    owner = await registerUser(t.http);
    intruder = await registerUser(t.http);
    ownersPlaylist = await playlistOf(owner, [v1, v2], 'Owner Favourites');
  });
  afterAll(() => t.close());

  describe('POST /api/playlists/create-playlist', () => {
    it('creates the playlist with the video as its first item and answers 201', async () => {
      const me = await registerUser(t.http);
      const res = await request(t.http)
        .post('/api/playlists/create-playlist')
        .set(bearer(me))
        .send({ video_id: v2, title: 'Road Trip', user_id: me.id, display_name: 'Sam' })
        .expect(201);
      expect(res.body).toEqual({ data: { playlist_id: expect.any(Number), title: 'Road Trip', user_id: me.id }, error: null });
      expect(await items(res.body.data.playlist_id)).toEqual([v2]);
    });

    it('stores the title trimmed', async () => {
      const me = await registerUser(t.http);
      const res = await request(t.http).post('/api/playlists/create-playlist').set(bearer(me)).send({ video_id: v1, title: '   Gym Mix   ' }).expect(201);
      expect(res.body.data.title).toBe('Gym Mix');
      expect(await titleOf(res.body.data.playlist_id)).toBe('Gym Mix');
    });

    it.each([
      ['letters of other scripts', 'Плейлист お気に入り'],
      ['every allowed sign', "Rock & Roll (Live)! vol. 2, isn't it? -_"],
      ['exactly 4 characters', 'abcd'],
      ['exactly 40 characters', 'x'.repeat(40)],
    ])('accepts a title with %s', async (_case, title) => {
      const me = await registerUser(t.http);
      const res = await request(t.http).post('/api/playlists/create-playlist').set(bearer(me)).send({ video_id: v1, title }).expect(201);
      expect(res.body.data.title).toBe(title);
    });

    it.each([
      ['an empty title', '', TITLE_REQUIRED],
      ['a title of spaces', '    ', TITLE_REQUIRED],
      ['a missing title', undefined, TITLE_REQUIRED],
      ['a null title', null, TITLE_REQUIRED],
      ['a 3-character title', 'abc', TITLE_INVALID],
      ['a title 3 characters long once trimmed', '  abc  ', TITLE_INVALID],
      ['a 41-character title', 'x'.repeat(41), TITLE_INVALID],
      ['a very long title', 'x'.repeat(5000), TITLE_INVALID],
      ['markup in the title', '<script>alert(1)</script>', TITLE_INVALID],
      ['an emoji in the title', 'Party 🎉 Time', TITLE_INVALID],
      ['a slash in the title', 'this/that', TITLE_INVALID],
    ])('answers 400 with the exact message for %s and creates nothing', async (_case, title, message) => {
      const before = await playlistCount(owner);
      const res = await request(t.http).post('/api/playlists/create-playlist').set(bearer(owner)).send({ video_id: v1, title, user_id: owner.id }).expect(400);
      expect(res.body).toEqual({ error: message, statusCode: 400 });
      expect(await playlistCount(owner)).toBe(before);
    });

    it('answers 409 with errorCode 23505 when the caller already has the title, whatever its case', async () => {
      const me = await registerUser(t.http);
      await playlistOf(me, [v1], 'Leg Day');
      for (const title of ['Leg Day', 'LEG DAY', '  leg day ']) {
        const res = await request(t.http).post('/api/playlists/create-playlist').set(bearer(me)).send({ video_id: v2, title, user_id: me.id }).expect(409);
        expect(res.body).toEqual({ error: 'You already have a playlist with this title', errorCode: '23505', statusCode: 409 });
      }
      expect(await playlistCount(me)).toBe(1);
    });

    it('lets two users have playlists with the same title', async () => {
      const me = await registerUser(t.http);
      const res = await request(t.http).post('/api/playlists/create-playlist').set(bearer(me)).send({ video_id: v1, title: 'owner favourites' }).expect(201);
      expect(res.body.data.title).toBe('owner favourites');
    });

    it('answers 404 "Video not found" for an unknown or unpublished video and leaves no playlist behind', async () => {
      const me = await registerUser(t.http);
      for (const videoId of [UNKNOWN_ID, hidden]) {
        const res = await request(t.http).post('/api/playlists/create-playlist').set(bearer(me)).send({ video_id: videoId, title: 'Ghost List', user_id: me.id }).expect(404);
        expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
      }
      expect(await playlistCount(me)).toBe(0);
      // The title is free: nothing half-made holds it.
      await request(t.http).post('/api/playlists/create-playlist').set(bearer(me)).send({ video_id: v1, title: 'Ghost List' }).expect(201);
    });

    it("refuses a playlist for another user's id and creates nothing for either", async () => {
      const before = await playlistCount(owner);
      const res = await request(t.http)
        .post('/api/playlists/create-playlist')
        .set(bearer(intruder))
        .send({ video_id: v1, title: 'Sneaky List', user_id: owner.id, display_name: 'Sam' })
        .expect(403);
      expect(res.body).toEqual({ error: 'You can only change your own lists', statusCode: 403 });
      expect(await playlistCount(owner)).toBe(before);
      expect(await playlistCount(intruder)).toBe(0);
    });

    it.each([
      ['video_id as a string', { video_id: '12', title: 'Valid Title' }, /video_id must be a positive integer/],
      ['video_id 0', { video_id: 0, title: 'Valid Title' }, /video_id must be a positive integer/],
      ['no video_id', { title: 'Valid Title' }, /video_id must be a positive integer/],
      ['a numeric title', { video_id: 1, title: 1234 }, /title must be a string/],
      ['a numeric user_id', { video_id: 1, title: 'Valid Title', user_id: 5 }, /user_id must be a string/],
      ['a 41-character display_name', { video_id: 1, title: 'Valid Title', display_name: 'd'.repeat(41) }, /display_name must be shorter than or equal to 40 characters/],
      ['an extra field', { video_id: 1, title: 'Valid Title', public: true }, /property public should not exist/],
    ])('answers 400 in the error shape for %s and creates nothing', async (_case, body, message) => {
      const before = await playlistCount(owner);
      const res = await request(t.http).post('/api/playlists/create-playlist').set(bearer(owner)).send(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
      expect(await playlistCount(owner)).toBe(before);
    });
  });

  describe('GET /api/playlists/get-user-playlists', () => {
    it("lists the caller's playlists, most recently changed first, with count and first thumbnail", async () => {
      const me = await registerUser(t.http);
      const older = await playlistOf(me, [v2, v1], 'Older List');
      const newer = await playlistOf(me, [v3], 'Newer List');
      await playlistOf(intruder, [v1], 'Not Mine');
      const res = await request(t.http).get('/api/playlists/get-user-playlists').set(bearer(me)).expect(200);
      expect(res.body).toEqual({
        data: [
          { playlist_id: newer, title: 'Newer List', user_id: me.id, video_count: 1, thumbnail: null },
          { playlist_id: older, title: 'Older List', user_id: me.id, video_count: 2, thumbnail: '/thumbs/evening-swim.jpg' },
        ],
        error: null,
      });

      // Adding a video is a change: the older list comes first now.
      await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(me)).send({ video_id: v3, playlist_id: older }).expect(200);
      const after = await request(t.http).get('/api/playlists/get-user-playlists').set(bearer(me)).expect(200);
      expect(after.body.data.map((p: { playlist_id: number }) => p.playlist_id)).toEqual([older, newer]);
      expect(after.body.data[0].video_count).toBe(3);
    });

    it('counts only published videos and takes the thumbnail from the first of them', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1, v2]);
      await t.db.query(`UPDATE videos SET status = 'processing' WHERE id = $1`, [v1]);
      try {
        const res = await request(t.http).get('/api/playlists/get-user-playlists').set(bearer(me)).expect(200);
        expect(res.body.data).toEqual([expect.objectContaining({ playlist_id: id, video_count: 1, thumbnail: '/thumbs/evening-swim.jpg' })]);
      } finally {
        await t.db.query(`UPDATE videos SET status = 'ready' WHERE id = $1`, [v1]);
      }
    });

    it('answers an empty list for a user without playlists', async () => {
      const me = await registerUser(t.http);
      const res = await request(t.http).get('/api/playlists/get-user-playlists').set(bearer(me)).expect(200);
      expect(res.body).toEqual({ data: [], error: null });
    });

    it('answers a null thumbnail once the playlist is empty', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1]);
      await request(t.http).delete(`/api/playlists/${id}/videos/${v1}`).set(bearer(me)).expect(204);
      const res = await request(t.http).get('/api/playlists/get-user-playlists').set(bearer(me)).expect(200);
      expect(res.body.data).toEqual([expect.objectContaining({ playlist_id: id, video_count: 0, thumbnail: null })]);
    });
  });

  describe('POST /api/playlists/add-to-playlist', () => {
    it('appends the video at the end and answers {error: null}', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v2]);
      const res = await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(me)).send({ video_id: v1, playlistUserId: me.id, playlist_id: id }).expect(200);
      expect(res.body).toEqual({ error: null });
      await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(me)).send({ video_id: v3, playlistUserId: me.id, playlist_id: id }).expect(200);
      expect(await items(id)).toEqual([v2, v1, v3]);
      const positions = await t.db.query<{ position: number }[]>(`SELECT position FROM playlist_items WHERE playlist_id = $1 ORDER BY position`, [id]);
      expect(positions.map((p) => p.position)).toEqual([0, 1, 2]);
    });

    it('gives concurrent adds distinct positions', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1]);
      const extra = [];
      for (let i = 0; i < 6; i++) extra.push(await insertVideo(t.db, { title: `Concurrent ${i}` }));
      await Promise.all(
        extra.map((videoId) => request(t.http).post('/api/playlists/add-to-playlist').set(bearer(me)).send({ video_id: videoId, playlist_id: id }).expect(200)),
      );
      const rows = await t.db.query<{ position: number }[]>(`SELECT position FROM playlist_items WHERE playlist_id = $1 ORDER BY position`, [id]);
      expect(rows.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      await t.db.query('DELETE FROM videos WHERE id = ANY($1)', [extra]);
    });

    it('answers 409 "Video is already in playlist" with errorCode 23505 for a duplicate, keeping one entry', async () => {
      const res = await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(owner)).send({ video_id: v1, playlistUserId: owner.id, playlist_id: ownersPlaylist }).expect(409);
      expect(res.body).toEqual({ error: 'Video is already in playlist', errorCode: '23505', statusCode: 409 });
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });

    it("refuses to add to another user's playlist and adds nothing", async () => {
      const res = await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(intruder)).send({ video_id: v3, playlist_id: ownersPlaylist }).expect(403);
      expect(res.body).toEqual({ error: 'You are not allowed to change this playlist', statusCode: 403 });
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });

    it("refuses another user's id as playlistUserId and adds nothing", async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1]);
      const res = await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(me)).send({ video_id: v2, playlistUserId: owner.id, playlist_id: id }).expect(403);
      expect(res.body).toEqual({ error: 'You can only change your own lists', statusCode: 403 });
      expect(await items(id)).toEqual([v1]);
    });

    it('answers 404 "Playlist not found" for an unknown playlist', async () => {
      const res = await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(owner)).send({ video_id: v1, playlist_id: UNKNOWN_ID }).expect(404);
      expect(res.body).toEqual({ error: 'Playlist not found', statusCode: 404 });
    });

    it('answers 404 "Video not found" for an unknown or unpublished video and adds nothing', async () => {
      for (const videoId of [UNKNOWN_ID, hidden]) {
        const res = await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(owner)).send({ video_id: videoId, playlist_id: ownersPlaylist }).expect(404);
        expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
      }
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });

    it.each([
      ['video_id as a string', { video_id: '12', playlist_id: 1 }, /video_id must be a positive integer/],
      ['playlist_id as a string', { video_id: 1, playlist_id: '1' }, /playlist_id must be a positive integer/],
      ['a negative playlist_id', { video_id: 1, playlist_id: -4 }, /playlist_id must be a positive integer/],
      ['a numeric playlistUserId', { video_id: 1, playlist_id: 1, playlistUserId: 9 }, /playlistUserId must be a string/],
      ['an extra field', { video_id: 1, playlist_id: 1, position: 0 }, /property position should not exist/],
    ])('answers 400 in the error shape for %s', async (_case, body, message) => {
      const res = await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(owner)).send(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });
  });

  describe('GET /api/playlists/{id}', () => {
    it('answers the playlist and its published video cards in playlist order', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v3, v1, v2], 'In Order');
      await t.db.query(`INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 99)`, [id, hidden]);
      const res = await request(t.http).get(`/api/playlists/${id}`).set(bearer(me)).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'playlist']);
      expect(res.body.playlist).toEqual({ playlist_id: id, title: 'In Order', user_id: me.id });
      expect(ids(res.body.data)).toEqual([v3, v1, v2]);
      expect(res.body.data[1]).toMatchObject({ id: v1, title: 'Morning Run', thumbnail: '/thumbs/morning-run.jpg' });
      expect(Object.keys(res.body.data[1])).toEqual(
        expect.arrayContaining(['id', 'slug', 'title', 'atg_title', 'jtg_title', 'thumbnail', 'preview', 'views', 'likes', 'featured', 'duration', 'upload_date', 'cdn', 'url']),
      );
    });

    it("refuses another user's playlist", async () => {
      const res = await request(t.http).get(`/api/playlists/${ownersPlaylist}`).set(bearer(intruder)).expect(403);
      expect(res.body).toEqual({ error: 'You are not allowed to change this playlist', statusCode: 403 });
    });

    it('answers 404 for an unknown playlist and 400 for a bad id', async () => {
      const missing = await request(t.http).get(`/api/playlists/${UNKNOWN_ID}`).set(bearer(owner)).expect(404);
      expect(missing.body).toEqual({ error: 'Playlist not found', statusCode: 404 });
      for (const id of ['abc', '0', '1.5', '99999999999']) {
        const bad = await request(t.http).get(`/api/playlists/${id}`).set(bearer(owner)).expect(400);
        expect(bad.body).toEqual({ error: 'id must be a positive integer', statusCode: 400 });
      }
    });
  });

  describe('PATCH /api/playlists/{id}', () => {
    it('renames the playlist, trimmed, and answers {playlist}', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1], 'Old Name');
      const res = await request(t.http).patch(`/api/playlists/${id}`).set(bearer(me)).send({ title: '  New Name ' }).expect(200);
      expect(res.body).toEqual({ playlist: { playlist_id: id, title: 'New Name', user_id: me.id } });
      expect(await titleOf(id)).toBe('New Name');
    });

    it('lets a playlist change the case of its own title', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1], 'shouting list');
      const res = await request(t.http).patch(`/api/playlists/${id}`).set(bearer(me)).send({ title: 'SHOUTING LIST' }).expect(200);
      expect(res.body.playlist.title).toBe('SHOUTING LIST');
    });

    it("answers 409 with errorCode 23505 for another of the caller's titles, whatever its case", async () => {
      const me = await registerUser(t.http);
      await playlistOf(me, [v1], 'Taken Title');
      const id = await playlistOf(me, [v1], 'Free Title');
      const res = await request(t.http).patch(`/api/playlists/${id}`).set(bearer(me)).send({ title: 'TAKEN title' }).expect(409);
      expect(res.body).toEqual({ error: 'You already have a playlist with this title', errorCode: '23505', statusCode: 409 });
      expect(await titleOf(id)).toBe('Free Title');
    });

    it.each([
      ['an empty title', '', TITLE_REQUIRED],
      ['a missing title', undefined, TITLE_REQUIRED],
      ['a 3-character title', 'abc', TITLE_INVALID],
      ['a 41-character title', 'y'.repeat(41), TITLE_INVALID],
      ['a title with invalid characters', 'semi;colon', TITLE_INVALID],
    ])('answers 400 with the exact message for %s and keeps the title', async (_case, title, message) => {
      const res = await request(t.http).patch(`/api/playlists/${ownersPlaylist}`).set(bearer(owner)).send({ title }).expect(400);
      expect(res.body).toEqual({ error: message, statusCode: 400 });
      expect(await titleOf(ownersPlaylist)).toBe('Owner Favourites');
    });

    it('answers 400 for a non-string title or an extra field', async () => {
      for (const [body, message] of [[{ title: 42 }, /title must be a string/], [{ title: 'Fine Title', user_id: owner.id }, /property user_id should not exist/]] as const) {
        const res = await request(t.http).patch(`/api/playlists/${ownersPlaylist}`).set(bearer(owner)).send(body).expect(400);
        expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
      }
      expect(await titleOf(ownersPlaylist)).toBe('Owner Favourites');
    });

    it("refuses to rename another user's playlist", async () => {
      const res = await request(t.http).patch(`/api/playlists/${ownersPlaylist}`).set(bearer(intruder)).send({ title: 'Hijacked' }).expect(403);
      expect(res.body).toEqual({ error: 'You are not allowed to change this playlist', statusCode: 403 });
      expect(await titleOf(ownersPlaylist)).toBe('Owner Favourites');
    });

    it('answers 404 for an unknown playlist', async () => {
      const res = await request(t.http).patch(`/api/playlists/${UNKNOWN_ID}`).set(bearer(owner)).send({ title: 'Whatever' }).expect(404);
      expect(res.body).toEqual({ error: 'Playlist not found', statusCode: 404 });
    });
  });

  describe('DELETE /api/playlists/{id}', () => {
    it('deletes the playlist with its items', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1, v2]);
      const res = await request(t.http).delete(`/api/playlists/${id}`).set(bearer(me)).expect(204);
      expect(res.text).toBe('');
      expect(await playlistCount(me)).toBe(0);
      expect(await items(id)).toEqual([]);
      await request(t.http).get(`/api/playlists/${id}`).set(bearer(me)).expect(404);
      // A second delete finds nothing.
      await request(t.http).delete(`/api/playlists/${id}`).set(bearer(me)).expect(404);
    });

    it("refuses to delete another user's playlist", async () => {
      const res = await request(t.http).delete(`/api/playlists/${ownersPlaylist}`).set(bearer(intruder)).expect(403);
      expect(res.body).toEqual({ error: 'You are not allowed to change this playlist', statusCode: 403 });
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });

    it('answers 404 for an unknown playlist and 400 for a bad id', async () => {
      const res = await request(t.http).delete(`/api/playlists/${UNKNOWN_ID}`).set(bearer(owner)).expect(404);
      expect(res.body).toEqual({ error: 'Playlist not found', statusCode: 404 });
      await request(t.http).delete('/api/playlists/x1').set(bearer(owner)).expect(400);
    });
  });

  describe('DELETE /api/playlists/{id}/videos/{videoId}', () => {
    it('removes the video, keeping the others in order', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1, v2, v3]);
      const res = await request(t.http).delete(`/api/playlists/${id}/videos/${v2}`).set(bearer(me)).expect(204);
      expect(res.text).toBe('');
      expect(await items(id)).toEqual([v1, v3]);
      const list = await request(t.http).get(`/api/playlists/${id}`).set(bearer(me)).expect(200);
      expect(ids(list.body.data)).toEqual([v1, v3]);
    });

    it('answers 404 when the video is not in the playlist, as on a second removal', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1, v2]);
      await request(t.http).delete(`/api/playlists/${id}/videos/${v1}`).set(bearer(me)).expect(204);
      for (const videoId of [v1, v3, UNKNOWN_ID]) {
        const res = await request(t.http).delete(`/api/playlists/${id}/videos/${videoId}`).set(bearer(me)).expect(404);
        expect(res.body).toEqual({ error: 'Video is not in this playlist', statusCode: 404 });
      }
      expect(await items(id)).toEqual([v2]);
    });

    it("refuses to remove a video from another user's playlist", async () => {
      const res = await request(t.http).delete(`/api/playlists/${ownersPlaylist}/videos/${v1}`).set(bearer(intruder)).expect(403);
      expect(res.body).toEqual({ error: 'You are not allowed to change this playlist', statusCode: 403 });
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });

    it('answers 404 for an unknown playlist and 400 for a bad video id', async () => {
      const missing = await request(t.http).delete(`/api/playlists/${UNKNOWN_ID}/videos/${v1}`).set(bearer(owner)).expect(404);
      expect(missing.body).toEqual({ error: 'Playlist not found', statusCode: 404 });
      const bad = await request(t.http).delete(`/api/playlists/${ownersPlaylist}/videos/abc`).set(bearer(owner)).expect(400);
      expect(bad.body).toEqual({ error: 'videoId must be a positive integer', statusCode: 400 });
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });
  });

  describe('PUT /api/playlists/{id}/order', () => {
    it('reorders the playlist, and keeps the new order for later adds', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1, v2, v3]);
      const res = await request(t.http).put(`/api/playlists/${id}/order`).set(bearer(me)).send({ video_ids: [v3, v1, v2] }).expect(204);
      expect(res.text).toBe('');
      const list = await request(t.http).get(`/api/playlists/${id}`).set(bearer(me)).expect(200);
      expect(ids(list.body.data)).toEqual([v3, v1, v2]);

      const extra = await insertVideo(t.db, { title: 'Late Addition' });
      await request(t.http).post('/api/playlists/add-to-playlist').set(bearer(me)).send({ video_id: extra, playlist_id: id }).expect(200);
      await request(t.http).put(`/api/playlists/${id}/order`).set(bearer(me)).send({ video_ids: [v2, extra, v3, v1] }).expect(204);
      const again = await request(t.http).get(`/api/playlists/${id}`).set(bearer(me)).expect(200);
      expect(ids(again.body.data)).toEqual([v2, extra, v3, v1]);
      await t.db.query('DELETE FROM videos WHERE id = $1', [extra]);
    });

    it('orders only the videos the playlist shows, keeping unpublished ones after them', async () => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1, v2]);
      await t.db.query(`INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 0)`, [id, hidden]);
      await request(t.http).put(`/api/playlists/${id}/order`).set(bearer(me)).send({ video_ids: [v2, v1] }).expect(204);
      expect(await items(id)).toEqual([v2, v1, hidden]);
    });

    it.each([
      ['a duplicate', () => [v1, v1, v2], /video_ids must not contain duplicates/],
      ['a missing video', () => [v2, v1], /video_ids must list every video of the playlist exactly once/],
      ['an extra video', () => [v3, v2, v1, hidden], /video_ids must list every video of the playlist exactly once/],
      ['an unknown video', () => [v3, v2, UNKNOWN_ID], /video_ids must list every video of the playlist exactly once/],
      ['a string id', () => [String(v3), v2, v1], /each value in video_ids must be a positive integer/],
      ['a fractional id', () => [v3 + 0.5, v2, v1], /each value in video_ids must be a positive integer/],
      ['a non-array', () => 'v3,v2,v1', /video_ids must be an array/],
    ])('answers 400 for %s and keeps the order', async (_case, videoIds, message) => {
      const me = await registerUser(t.http);
      const id = await playlistOf(me, [v1, v2, v3]);
      const res = await request(t.http).put(`/api/playlists/${id}/order`).set(bearer(me)).send({ video_ids: videoIds() }).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
      expect(await items(id)).toEqual([v1, v2, v3]);
    });

    it('answers 400 for a missing list or an extra field', async () => {
      for (const [body, message] of [[{}, /video_ids must be an array/], [{ video_ids: [v2, v1], title: 'x' }, /property title should not exist/]] as const) {
        const res = await request(t.http).put(`/api/playlists/${ownersPlaylist}/order`).set(bearer(owner)).send(body).expect(400);
        expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
      }
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });

    it("refuses to reorder another user's playlist", async () => {
      const res = await request(t.http).put(`/api/playlists/${ownersPlaylist}/order`).set(bearer(intruder)).send({ video_ids: [v2, v1] }).expect(403);
      expect(res.body).toEqual({ error: 'You are not allowed to change this playlist', statusCode: 403 });
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
    });

    it('answers 404 for an unknown playlist', async () => {
      const res = await request(t.http).put(`/api/playlists/${UNKNOWN_ID}/order`).set(bearer(owner)).send({ video_ids: [] }).expect(404);
      expect(res.body).toEqual({ error: 'Playlist not found', statusCode: 404 });
    });
  });

  it('documents every route as signed-in only in the OpenAPI document', async () => {
    const doc = (await request(t.http).get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    };
    for (const [method, path, status] of [
      ['get', '/api/playlists/get-user-playlists', '200'],
      ['post', '/api/playlists/create-playlist', '201'],
      ['post', '/api/playlists/add-to-playlist', '200'],
      ['get', '/api/playlists/{id}', '200'],
      ['patch', '/api/playlists/{id}', '200'],
      ['delete', '/api/playlists/{id}', '204'],
      ['delete', '/api/playlists/{id}/videos/{videoId}', '204'],
      ['put', '/api/playlists/{id}/order', '204'],
    ]) {
      const op = doc.paths[path]?.[method];
      expect({ path, method, documented: !!op }).toEqual({ path, method, documented: true });
      expect(op.security).toEqual(expect.arrayContaining([{ bearer: [] }]));
      expect(Object.keys(op.responses)).toContain(status);
    }
  });

  describe('without a token', () => {
    it.each([
      ['get', '/api/playlists/get-user-playlists', undefined],
      ['post', '/api/playlists/create-playlist', { video_id: 1, title: 'No Token List' }],
      ['post', '/api/playlists/add-to-playlist', { video_id: 3, playlist_id: 1 }],
      ['get', '/api/playlists/{id}', undefined],
      ['patch', '/api/playlists/{id}', { title: 'No Token Rename' }],
      ['delete', '/api/playlists/{id}', undefined],
      ['delete', '/api/playlists/{id}/videos/1', undefined],
      ['put', '/api/playlists/{id}/order', { video_ids: [] }],
    ] as const)('answers 401 for %s %s and changes nothing', async (method, template, body) => {
      const path = template.replace('{id}', String(ownersPlaylist));
      const req = request(t.http)[method](path);
      const res = await (body === undefined ? req : req.send(body));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), statusCode: 401 });
      expect(await titleOf(ownersPlaylist)).toBe('Owner Favourites');
      expect(await items(ownersPlaylist)).toEqual([v1, v2]);
      const [{ n }] = await t.db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM playlists WHERE title LIKE 'No Token%'`);
      expect(n).toBe(0);
    });
  });
});
