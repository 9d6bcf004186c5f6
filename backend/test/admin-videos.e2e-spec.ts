import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EDIT_CONFLICT, editPrecondition } from '@hunktube/shared';
import request from 'supertest';
import { insertVideo, guestFrom } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

type Video = Record<string, unknown> & { id: number; categories: { id: string; name: string }[] };

describe('Admin video edits (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(path.join(tmpdir(), 'admin-videos-media-'));
    // Counts stay buffered until something flushes them; no ingest worker picks up the jobs inserted here.
    t = await createTestApp({ TRUST_PROXY: 'loopback', MEDIA_DIR: mediaDir, COUNTER_FLUSH_MS: '3600000', INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    await insertVideo(t.db, { categories: ['Twinks', 'Bears', 'Big Muscle Men'], performers: ['Alex Stone', 'Sam Rivers'] });
  });
  afterAll(async () => {
    await t.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  const publicVideo = async (id: number): Promise<Video> => (await request(t.http).get(`/api/videos/${id}`).expect(200)).body;
  const update = (body: unknown, user: TestUser = admin) => request(t.http).post('/api/admin/update-video').set(bearer(user)).send(body as object);
  const remove = (body: unknown, user: TestUser = admin) => request(t.http).post('/api/admin/delete-video').set(bearer(user)).send(body as object);
  const row = async (id: number) => {
    const [r] = await t.db.query(`SELECT * FROM videos WHERE id = $1`, [id]);
    return r as Record<string, unknown> | undefined;
  };
  const joinIds = async (table: string, column: string, id: number) =>
    (await t.db.query<{ x: string }[]>(`SELECT ${column} AS x FROM ${table} WHERE video_id = $1 ORDER BY 1`, [id])).map((r) => r.x);

  describe('POST /api/admin/update-video with If-Match (no lost updates)', () => {
    const updateIf = (body: Video, read: Video, user: TestUser = admin) =>
      update(body, user).set('If-Match', editPrecondition(read as unknown as Parameters<typeof editPrecondition>[0]));
    const view = (id: number, agent: string) =>
      request(t.http).post('/api/video/increment-views').set(guestFrom(agent)).send({ videoId: id }).expect(200);

    it('answers 409 to the second of two admins who edited the same read, changing nothing', async () => {
      const id = await insertVideo(t.db, { title: 'Shared Edit', categories: ['Bears'] });
      const read = await publicVideo(id);
      const other = await registerAdmin(t);
      await updateIf({ ...read, title: 'First Admin' }, read, other).expect(200);
      const res = await updateIf({ ...read, atg_title: 'Second Admin' }, read).expect(409);
      expect(res.body).toEqual({ error: EDIT_CONFLICT, statusCode: 409 });
      expect(await row(id)).toMatchObject({ title: 'First Admin', atg_title: '' });
      // Read again, the second admin's edit goes through.
      const fresh = await publicVideo(id);
      await updateIf({ ...fresh, atg_title: 'Second Admin' }, fresh).expect(200);
      expect(await row(id)).toMatchObject({ title: 'First Admin', atg_title: 'Second Admin' });
    });

    it('keeps the views counted while the panel was open, buffered or written', async () => {
      const id = await insertVideo(t.db, { title: 'Counted Meanwhile', views: 100, likes: 5 });
      const read = await publicVideo(id);
      for (let i = 0; i < 12; i++) await view(id, `meanwhile-${i}`);
      await updateIf({ ...read, title: 'Renamed While Watched' }, read).expect(200);
      expect(Number((await row(id))?.views)).toBe(112);
      expect((await publicVideo(id)).views).toBe(112);
    });

    it("applies an admin's change of views and likes on top of what was counted since", async () => {
      const id = await insertVideo(t.db, { title: 'Count Edit', views: 100, likes: 5 });
      const read = await publicVideo(id);
      for (let i = 0; i < 3; i++) await view(id, `count-edit-${i}`);
      const res = await updateIf({ ...read, views: 150, likes: 2 }, read).expect(200);
      expect(res.body.data).toMatchObject({ views: 153, likes: 2 });
      expect(await row(id)).toMatchObject({ views: 153, likes: 2 });
    });

    it('is no conflict when only the counts moved, or when categories come back in another order', async () => {
      const id = await insertVideo(t.db, { title: 'Order', categories: ['Twinks', 'Bears'] });
      const read = await publicVideo(id);
      await view(id, 'order-view');
      await updateIf({ ...read, categories: [...read.categories].reverse(), featured: 3 }, read).expect(200);
      expect(await row(id)).toMatchObject({ featured: 3 });
    });

    it('answers 400 to an If-Match that is not a version of ours, and takes * as no precondition', async () => {
      const id = await insertVideo(t.db, { title: 'Bad Precondition' });
      const read = await publicVideo(id);
      for (const header of ['"abc"', 'W/"0123456789abcdef-1-2"', 'garbage']) {
        const res = await update({ ...read, title: 'Nope' }).set('If-Match', header).expect(400);
        expect(res.body.statusCode).toBe(400);
      }
      expect(await row(id)).toMatchObject({ title: 'Bad Precondition' });
      await update({ ...read, title: 'Star' }).set('If-Match', '*').expect(200);
    });

    it('answers 404 for a video that is gone, whatever the precondition', async () => {
      const id = await insertVideo(t.db, { title: 'Gone Soon' });
      const read = await publicVideo(id);
      await t.db.query('DELETE FROM videos WHERE id = $1', [id]);
      await updateIf(read, read).expect(404);
    });
  });

  describe('POST /api/admin/update-video', () => {
    it('writes every editable field from the whole Video object and answers the video as the catalogue shows it', async () => {
      const id = await insertVideo(t.db, { title: 'Before', categories: ['Twinks'], performers: ['Alex Stone'] });
      const sent = {
        ...(await publicVideo(id)),
        slug: 'after-the-edit',
        title: 'After',
        atg_title: 'After (ATG)',
        jtg_title: 'After (JTG)',
        views: 1234,
        likes: 56,
        featured: 2,
        upload_date: '2023-05-04T03:02:01.000Z',
        thumbnail: '/thumbs/custom/thumb.webp',
        url: '/2023/05/after.mp4',
        categories: [{ id: 'bears', name: 'Bears' }, { id: 'big-muscle-men', name: 'Big Muscle Men' }],
        performers: [{ id: 'sam-rivers', name: 'Sam Rivers' }],
      };
      const res = await update(sent).expect(200);
      const shown = await publicVideo(id);
      expect(res.body).toEqual({ data: shown, error: null });
      expect(shown).toMatchObject({
        id,
        slug: 'after-the-edit',
        title: 'After',
        atg_title: 'After (ATG)',
        jtg_title: 'After (JTG)',
        views: 1234,
        likes: 56,
        featured: 2,
        upload_date: '2023-05-04T03:02:01.000Z',
        thumbnail: '/thumbs/custom/thumb.webp',
        url: '/2023/05/after.mp4',
        stream_path: '/videos/2023/05/after/index.m3u8',
        categories: [{ id: 'bears', name: 'Bears' }, { id: 'big-muscle-men', name: 'Big Muscle Men' }],
        performers: [{ id: 'sam-rivers', name: 'Sam Rivers' }],
      });
      expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(sent).sort());
    });

    it('ignores every field outside the editable ones, without a 400', async () => {
      const id = await insertVideo(t.db, { duration: 300, cdn: 1, media_ready: false });
      const before = await row(id);
      const res = await update({
        ...(await publicVideo(id)),
        title: 'Only The Title Changes',
        duration: 9999,
        stream_path: '/videos/elsewhere/index.m3u8',
        poster: 'https://evil.example/p.jpg',
        storyboard: null,
        preview: '/x.mp4',
        cdn: 2,
        created_at: '2000-01-01T00:00:00Z',
        updated_at: '2000-01-01T00:00:00Z',
        status: 'failed',
        media_ready: true,
        trending_score: 1e9,
        search_vector: 'x',
        foo: { bar: [1, 2, 3] },
      }).expect(200);
      expect(res.body.data).toMatchObject({ title: 'Only The Title Changes', duration: 300, cdn: 1, preview: null, stream_path: expect.stringMatching(/^\/videos\/2024\//) });
      expect(res.body.data).not.toHaveProperty('foo');
      const after = await row(id);
      for (const column of ['duration', 'cdn', 'status', 'media_ready', 'trending_score', 'created_at', 'width', 'height']) {
        expect({ column, value: after?.[column] }).toEqual({ column, value: before?.[column] });
      }
    });

    it('keeps the fields it is not sent', async () => {
      const id = await insertVideo(t.db, { title: 'Partial', views: 7, likes: 3, featured: 1, categories: ['Twinks'] });
      const before = await publicVideo(id);
      const res = await update({ id, atg_title: 'Brand Title' }).expect(200);
      expect(res.body.data).toEqual({ ...before, atg_title: 'Brand Title' });
      expect(await joinIds('video_categories', 'category_id', id)).toEqual(['twinks']);
    });

    it('matches categories and performers by id, else by name case-insensitively, dropping duplicates and extra keys', async () => {
      const id = await insertVideo(t.db);
      const res = await update({
        id,
        categories: [{ name: 'twinks' }, { id: 'bears', name: 'Bears', video_count: 3 }, { id: 'stale-id', name: 'BIG MUSCLE MEN' }, { id: 'twinks' }],
        performers: [{ name: ' alex stone ' }],
      }).expect(200);
      expect(res.body.data.categories).toEqual([
        { id: 'bears', name: 'Bears' },
        { id: 'big-muscle-men', name: 'Big Muscle Men' },
        { id: 'twinks', name: 'Twinks' },
      ]);
      expect(res.body.data.performers).toEqual([{ id: 'alex-stone', name: 'Alex Stone' }]);
      expect(await joinIds('video_categories', 'category_id', id)).toEqual(['bears', 'big-muscle-men', 'twinks']);
    });

    it('clears the categories and performers given as empty lists', async () => {
      const id = await insertVideo(t.db, { categories: ['Twinks'], performers: ['Alex Stone'] });
      const res = await update({ id, categories: [], performers: [] }).expect(200);
      expect(res.body.data).toMatchObject({ categories: [], performers: [] });
      expect(await joinIds('video_performers', 'performer_id', id)).toEqual([]);
    });

    it('answers 400 naming an unknown category or performer, and writes nothing of the request', async () => {
      const id = await insertVideo(t.db, { title: 'Untouched', categories: ['Twinks'], performers: ['Alex Stone'] });
      const whole = await publicVideo(id);
      const unknownCategory = await update({ ...whole, title: 'Changed', categories: [{ id: 'twinks', name: 'Twinks' }, { name: 'Foo' }] }).expect(400);
      expect(unknownCategory.body).toEqual({ error: 'Unknown category: Foo', statusCode: 400 });
      const unknownPerformer = await update({ ...whole, title: 'Changed', performers: [{ id: 'no-such-performer' }] }).expect(400);
      expect(unknownPerformer.body).toEqual({ error: 'Unknown performer: no-such-performer', statusCode: 400 });
      const nameless = await update({ ...whole, categories: [{ video_count: 1 }] }).expect(400);
      expect(nameless.body.error).toBe('Every category needs an id or a name');
      expect(await publicVideo(id)).toEqual(whole);
    });

    it('answers 404 for an unknown video', async () => {
      const res = await update({ id: 999999, title: 'Nobody' }).expect(404);
      expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
    });

    it('answers 409 when another video has the slug, keeps its own slug, and rolls back the categories', async () => {
      await insertVideo(t.db, { slug: 'taken-slug' });
      const id = await insertVideo(t.db, { slug: 'own-slug', categories: ['Twinks'] });
      const res = await update({ id, slug: 'taken-slug', categories: [{ id: 'bears' }] }).expect(409);
      expect(res.body).toEqual({ error: 'Slug is already taken by another video', statusCode: 409 });
      expect(await joinIds('video_categories', 'category_id', id)).toEqual(['twinks']);
      expect((await row(id))?.slug).toBe('own-slug');
      await update({ id, slug: 'own-slug', title: 'Same Slug Again' }).expect(200);
    });

    it('answers 409 when another video has the same media stem, and keeps the url', async () => {
      await insertVideo(t.db, { url: '/2024/10/original.mp4' });
      const id = await insertVideo(t.db, { url: '/2024/10/mine.mp4' });
      const res = await update({ id, url: '/2024/10/original.mov' }).expect(409);
      expect(res.body).toEqual({ error: expect.stringContaining('same stem'), statusCode: 409 });
      expect((await row(id))?.url).toBe('/2024/10/mine.mp4');
    });

    it.each([
      ['a missing id', { id: undefined, title: 'x' }],
      ['an id given as a string', { id: '1' }],
      ['a zero id', { id: 0 }],
      ['a fractional id', { id: 1.5 }],
      ['a slug with capitals', { slug: 'Has-Caps' }],
      ['a slug with spaces', { slug: 'has space' }],
      ['an empty slug', { slug: '' }],
      ['a slug over 200 characters', { slug: 'a'.repeat(201) }],
      ['a slug that is not a string', { slug: 12 }],
      ['an empty title', { title: '' }],
      ['a whitespace title', { title: '   ' }],
      ['a title over 300 characters', { title: 'x'.repeat(301) }],
      ['a title that is a number', { title: 5 }],
      ['an atg_title over 300 characters', { atg_title: 'x'.repeat(301) }],
      ['a jtg_title that is not a string', { jtg_title: ['x'] }],
      ['negative views', { views: -1 }],
      ['fractional views', { views: 1.5 }],
      ['views given as a string', { views: '10' }],
      ['negative likes', { likes: -3 }],
      ['views past the integer column', { views: 2 ** 31 }],
      ['a negative featured', { featured: -1 }],
      ['featured as a boolean', { featured: true }],
      ['a date that is not ISO 8601', { upload_date: 'yesterday' }],
      ['an impossible date', { upload_date: '2024-02-30' }],
      ['a date as a number', { upload_date: 1700000000000 }],
      ['a thumbnail over 500 characters', { thumbnail: `/thumbs/${'x'.repeat(500)}.jpg` }],
      ['a relative url', { url: 'relative/path.mp4' }],
      ['a url with .. segments', { url: '/2024/../../etc/passwd.mp4' }],
      ['a url of another scheme', { url: 'file:///etc/passwd' }],
      ['categories that are not a list', { categories: 'Twinks' }],
      ['categories given as bare names', { categories: ['Twinks'] }],
      ['a category id that is not a string', { categories: [{ id: 5 }] }],
      ['performers as an object', { performers: { id: 'alex-stone' } }],
    ])('answers 400 for %s and changes nothing', async (_case, fields) => {
      const id = await insertVideo(t.db, { title: 'Stays' });
      const before = await publicVideo(id);
      const res = await update({ ...before, ...fields }).expect(400);
      expect(res.body).toEqual({ error: expect.any(String), statusCode: 400 });
      expect(await publicVideo(id)).toEqual(before);
    });

    it('answers 400 for a body that is not an object', async () => {
      const res = await request(t.http).post('/api/admin/update-video').set(bearer(admin)).set('Content-Type', 'application/json').send('[1]').expect(400);
      expect(res.body).toEqual({ error: 'The body must be a JSON object', statusCode: 400 });
      await request(t.http).post('/api/admin/update-video').set(bearer(admin)).expect(400);
    });

    it('names the invalid field in the 400', async () => {
      const id = await insertVideo(t.db);
      expect((await update({ id, slug: 'Bad Slug' }).expect(400)).body.error).toBe('slug must be 1 to 200 characters of a-z, 0-9 and -');
      expect((await update({ id, views: -1 }).expect(400)).body.error).toBe('views must be an integer from 0 to 2147483647');
      expect((await update({ id, upload_date: 'soon' }).expect(400)).body.error).toBe('upload_date must be an ISO 8601 date');
    });

    it('accepts an ISO 8601 date without a time', async () => {
      const id = await insertVideo(t.db);
      const res = await update({ id, upload_date: '2022-12-31' }).expect(200);
      expect(res.body.data.upload_date).toBe('2022-12-31T00:00:00.000Z');
    });

    it('saves views and likes as the totals from now on, with buffered counts written first', async () => {
      const id = await insertVideo(t.db, { views: 10, likes: 1 });
      await request(t.http).post('/api/video/increment-views').set(guestFrom('viewer-a')).send({ videoId: id }).expect(200);
      await request(t.http).post('/api/video/increment-likes').set(guestFrom('viewer-a')).send({ videoId: id }).expect(200);
      expect(await publicVideo(id)).toMatchObject({ views: 11, likes: 2 });
      const res = await update({ ...(await publicVideo(id)), views: 500, likes: 40 }).expect(200);
      expect(res.body.data).toMatchObject({ views: 500, likes: 40 });
      await request(t.http).post('/api/admin/refresh-views').set(bearer(admin)).expect(200);
      expect(await publicVideo(id)).toMatchObject({ views: 500, likes: 40 });
      expect(await row(id)).toMatchObject({ views: 500, likes: 40 });
    });

    it('clears cached reads, so the lists show the edit at once', async () => {
      const id = await insertVideo(t.db, { title: 'Cache Probe' });
      const count = async () =>
        ((await request(t.http).get('/api/categories').expect(200)).body.data as { id: string; video_count: number }[]).find((c) => c.id === 'bears')
          ?.video_count;
      const before = await count();
      await update({ id, categories: [{ id: 'bears' }] }).expect(200);
      expect(await count()).toBe((before ?? 0) + 1);
      const related = await request(t.http).get(`/api/videos/${id}/related`).expect(200);
      expect(related.body.related).toBe(true);
    });

    it('edits a video that is still processing, which the catalogue does not show yet', async () => {
      const id = await insertVideo(t.db, { status: 'processing', title: 'In Progress', categories: ['Twinks'] });
      const res = await update({ id, title: 'Renamed While Processing', performers: [{ name: 'Sam Rivers' }] }).expect(200);
      expect(res.body).toEqual({
        data: expect.objectContaining({
          id,
          title: 'Renamed While Processing',
          categories: [{ id: 'twinks', name: 'Twinks' }],
          performers: [{ id: 'sam-rivers', name: 'Sam Rivers' }],
        }),
        error: null,
      });
      await request(t.http).get(`/api/videos/${id}`).expect(404);
    });

    it('changes nothing for a member', async () => {
      const id = await insertVideo(t.db, { title: 'Members Cannot' });
      await update({ id, title: 'Hijacked' }, member).expect(403);
      expect((await row(id))?.title).toBe('Members Cannot');
    });
  });

  describe('POST /api/admin/delete-video', () => {
    const writeMedia = (stem: string) => {
      for (const [folder, file] of [['videos', 'index.m3u8'], ['thumbs', 'poster.jpg']]) {
        mkdirSync(path.join(mediaDir, folder, stem), { recursive: true });
        writeFileSync(path.join(mediaDir, folder, stem, file), 'x');
      }
    };
    const hasMedia = (stem: string) => ({
      videos: existsSync(path.join(mediaDir, 'videos', stem, 'index.m3u8')),
      thumbs: existsSync(path.join(mediaDir, 'thumbs', stem, 'poster.jpg')),
    });

    it('removes the video, everything that refers to it and its media files, and nothing of its neighbours', async () => {
      const id = await insertVideo(t.db, { url: '/2024/07/goner.mp4', categories: ['Twinks'], performers: ['Alex Stone'] });
      const neighbour = await insertVideo(t.db, { url: '/2024/07/goner-2.mp4' });
      writeMedia('2024/07/goner');
      writeMedia('2024/07/goner-2');
      const [{ id: playlistId }] = await t.db.query(`INSERT INTO playlists (user_id, title) VALUES ($1, 'Mine') RETURNING id`, [member.id]);
      for (const table of ['bookmarks', 'watch_later_items', 'likes', 'history_entries']) {
        await t.db.query(`INSERT INTO ${table} (user_id, video_id) VALUES ($1, $2), ($1, $3)`, [member.id, id, neighbour]);
      }
      await t.db.query(`INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 1), ($1, $3, 2)`, [playlistId, id, neighbour]);
      await t.db.query(`INSERT INTO video_daily_stats (video_id, day, views) VALUES ($1, CURRENT_DATE, 3)`, [id]);
      await t.db.query(`INSERT INTO ingest_jobs (video_id, kind) VALUES ($1, 'ingest')`, [id]);

      const res = await remove({ ...(await publicVideo(id)), foo: 'ignored' }).expect(200);
      expect(res.body).toEqual({ error: null });

      await request(t.http).get(`/api/videos/${id}`).expect(404);
      expect(await row(id)).toBeUndefined();
      for (const table of ['bookmarks', 'watch_later_items', 'likes', 'history_entries', 'playlist_items', 'video_daily_stats', 'ingest_jobs', 'video_categories', 'video_performers']) {
        const counts = await t.db.query<{ mine: number; theirs: number }[]>(
          `SELECT count(*) FILTER (WHERE video_id = $1)::int AS mine, count(*) FILTER (WHERE video_id = $2)::int AS theirs FROM ${table}`,
          [id, neighbour],
        );
        expect({ table, mine: counts[0].mine }).toEqual({ table, mine: 0 });
        if (['bookmarks', 'watch_later_items', 'likes', 'history_entries', 'playlist_items'].includes(table)) {
          expect({ table, theirs: counts[0].theirs }).toEqual({ table, theirs: 1 });
        }
      }
      expect(hasMedia('2024/07/goner')).toEqual({ videos: false, thumbs: false });
      expect(hasMedia('2024/07/goner-2')).toEqual({ videos: true, thumbs: true });
      await request(t.http).get(`/api/videos/${neighbour}`).expect(200);
      // The categories themselves stay.
      expect(await t.db.query(`SELECT id FROM categories WHERE id = 'twinks'`)).toEqual([{ id: 'twinks' }]);
    });

    it("keeps its media folders when another video's media lives inside them", async () => {
      const id = await insertVideo(t.db, { url: '/2024/08/series.mp4' });
      await insertVideo(t.db, { url: '/2024/08/series/part-1.mp4' });
      writeMedia('2024/08/series');
      writeMedia('2024/08/series/part-1');
      await remove({ id }).expect(200);
      expect(hasMedia('2024/08/series/part-1')).toEqual({ videos: true, thumbs: true });
    });

    it('drops the video from cached listings at once', async () => {
      const id = await insertVideo(t.db);
      const total = async () => (await request(t.http).get('/api/videos?limit=1').expect(200)).body.total as number;
      const before = await total();
      await remove({ id }).expect(200);
      expect(await total()).toBe(before - 1);
    });

    it('answers 404 for an unknown video and 400 without a valid id', async () => {
      expect((await remove({ id: 999999 }).expect(404)).body).toEqual({ error: 'Video not found', statusCode: 404 });
      for (const body of [{}, { id: 'abc' }, { id: -1 }, { id: 1.5 }, { title: 'no id' }]) {
        const res = await remove(body).expect(400);
        expect(res.body).toEqual({ error: expect.any(String), statusCode: 400 });
      }
    });

    it('removes nothing for a member', async () => {
      const id = await insertVideo(t.db);
      await remove({ id }, member).expect(403);
      await request(t.http).post('/api/admin/delete-video').send({ id }).expect(401);
      expect(await row(id)).toBeDefined();
    });
  });
});
