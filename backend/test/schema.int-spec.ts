import { stemOf } from '../src/common/media-paths';
import { insertVideo } from './helpers/factories';
import { createTestApp, registerUser, TestApp } from './helpers/test-app';

/** The rules the constraints carry, on PGlite and (with TEST_DATABASE_URL) on the PostgreSQL server. */
describe('Schema constraints (integration)', () => {
  let t: TestApp;
  let userId: string;
  let otherId: string;
  let videoId: number;

  const codeOf = async (sql: string, params: unknown[]) => {
    try {
      await t.db.query(sql, params);
      return null;
    } catch (error) {
      return (error as { driverError?: { code?: string } }).driverError?.code ?? 'unknown';
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    userId = (await registerUser(t.http)).id;
    otherId = (await registerUser(t.http)).id;
    videoId = await insertVideo(t.db);
  });
  afterAll(() => t.close());

  it('raises 23505 for a video added twice to a playlist', async () => {
    const [{ id }] = await t.db.query(`INSERT INTO playlists (user_id, title) VALUES ($1, 'Road Trips') RETURNING id`, [userId]);
    await t.db.query('INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 0)', [id, videoId]);
    expect(await codeOf('INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 1)', [id, videoId])).toBe('23505');
  });

  it('raises 23505 for a playlist title a user already has, whatever its case, but not for another user', async () => {
    await t.db.query(`INSERT INTO playlists (user_id, title) VALUES ($1, 'Favourites')`, [userId]);
    expect(await codeOf(`INSERT INTO playlists (user_id, title) VALUES ($1, 'FAVOURITES')`, [userId])).toBe('23505');
    expect(await codeOf(`INSERT INTO playlists (user_id, title) VALUES ($1, 'Favourites')`, [otherId])).toBeNull();
  });

  it.each(['bookmarks', 'watch_later_items', 'likes', 'history_entries'])('keeps one %s row per user and video', async (table) => {
    await t.db.query(`INSERT INTO ${table} (user_id, video_id) VALUES ($1, $2)`, [userId, videoId]);
    expect(await codeOf(`INSERT INTO ${table} (user_id, video_id) VALUES ($1, $2)`, [userId, videoId])).toBe('23505');
  });

  it('raises 23505 for a duplicate video slug, category id or email', async () => {
    const [{ slug }] = await t.db.query('SELECT slug FROM videos WHERE id = $1', [videoId]);
    expect(await codeOf(`INSERT INTO videos (slug, url, title) VALUES ($1, '/x.mp4', 'x')`, [slug])).toBe('23505');
    await t.db.query(`INSERT INTO categories (id, name) VALUES ('twins', 'Twins')`);
    expect(await codeOf(`INSERT INTO categories (id, name) VALUES ('twins', 'TWINS')`, [])).toBe('23505');
    const [{ email }] = await t.db.query('SELECT email FROM users WHERE id = $1', [userId]);
    expect(await codeOf(`INSERT INTO users (email, password_hash, display_name) VALUES ($1, 'x', 'Dup')`, [email.toUpperCase()])).toBe('23505');
  });

  it('rejects ids that break the slug rule and counts below zero', async () => {
    expect(await codeOf(`INSERT INTO categories (id, name) VALUES ('Not A Slug', 'x')`, [])).toBe('23514');
    expect(await codeOf('UPDATE videos SET views = -1 WHERE id = $1', [videoId])).toBe('23514');
    expect(await codeOf('UPDATE videos SET duration = 0 WHERE id = $1', [videoId])).toBe('23514');
  });

  it('removes a deleted video from every list, playlist, taxonomy link and stat', async () => {
    const doomed = await insertVideo(t.db, { categories: ['Doomed'], performers: ['Gone Soon'] });
    const [{ id: playlistId }] = await t.db.query(`INSERT INTO playlists (user_id, title) VALUES ($1, 'Doomed List') RETURNING id`, [userId]);
    for (const table of ['bookmarks', 'watch_later_items', 'likes', 'history_entries']) {
      await t.db.query(`INSERT INTO ${table} (user_id, video_id) VALUES ($1, $2)`, [userId, doomed]);
    }
    await t.db.query('INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 0)', [playlistId, doomed]);
    await t.db.query('INSERT INTO video_daily_stats (video_id, day, views) VALUES ($1, CURRENT_DATE, 3)', [doomed]);
    await t.db.query(`INSERT INTO ingest_jobs (video_id, kind) VALUES ($1, 'ingest')`, [doomed]);
    await t.db.query('DELETE FROM videos WHERE id = $1', [doomed]);
    for (const table of ['bookmarks', 'watch_later_items', 'likes', 'history_entries', 'playlist_items', 'video_categories', 'video_performers', 'video_daily_stats', 'ingest_jobs']) {
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE video_id = $1`, [doomed]);
      expect({ table, n }).toEqual({ table, n: 0 });
    }
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM categories WHERE id = $1', ['doomed']);
    expect(n).toBe(1); // the category itself stays
  });

  it("removes a deleted user's lists and playlists", async () => {
    const gone = await registerUser(t.http);
    await t.db.query(`INSERT INTO playlists (user_id, title) VALUES ($1, 'Mine')`, [gone.id]);
    await t.db.query('INSERT INTO bookmarks (user_id, video_id) VALUES ($1, $2)', [gone.id, videoId]);
    await t.db.query('DELETE FROM users WHERE id = $1', [gone.id]);
    const [{ n }] = await t.db.query(
      'SELECT (SELECT count(*) FROM playlists WHERE user_id = $1) + (SELECT count(*) FROM bookmarks WHERE user_id = $1) AS n',
      [gone.id],
    );
    expect(Number(n)).toBe(0);
  });

  it('follows a renamed category id into its video links', async () => {
    const id = await insertVideo(t.db, { categories: ['Old Name'] });
    await t.db.query(`UPDATE categories SET id = 'new-name', name = 'New Name' WHERE id = 'old-name'`);
    expect(await t.db.query('SELECT category_id FROM video_categories WHERE video_id = $1', [id])).toEqual([{ category_id: 'new-name' }]);
  });

  it('derives the same media stem in SQL as stemOf does', async () => {
    const urls = ['/2024/06/pool-party.mp4', '2023/01/a.b.mov', '/clips/no-extension', '/a.b/c.d/file.name.mov',
      'https://cdn.example.com/2023/01/x.mp4?sig=1', '/dir/.hidden', '//double/slash.mp4', 'HTTP://Host/up/per.MP4#t=3'];
    for (const [i, url] of urls.entries()) {
      await t.db.query(`INSERT INTO videos (slug, url, title) VALUES ($1, $2, 't')`, [`stem-${i}`, url]);
    }
    const rows = await t.db.query(`SELECT stem FROM videos WHERE slug LIKE 'stem-%' ORDER BY id`);
    expect(rows.map((r: { stem: string }) => r.stem)).toEqual(urls.map(stemOf));
    expect(await codeOf(`INSERT INTO videos (slug, url, title) VALUES ('stem-dup', '/2024/06/pool-party.mov', 't')`, [])).toBe('23505');
  });

  it('keeps a removal request closed exactly when it has a closing time, and its reasons and video count in range', async () => {
    const insert = (state: string, closedAt: string | null, reason = 'other', ids = [videoId]) =>
      codeOf('INSERT INTO removal_requests (video_ids, reason, contact, state, closed_at) VALUES ($1::int[], $2, $3, $4, $5)', [
        ids, reason, 'x@example.com', state, closedAt,
      ]);
    expect(await insert('open', null)).toBeNull();
    expect(await insert('resolved', new Date().toISOString())).toBeNull();
    expect(await insert('resolved', null)).toBe('23514');
    expect(await insert('open', new Date().toISOString())).toBe('23514');
    expect(await insert('open', null, 'boredom')).toBe('23514');
    expect(await insert('open', null, 'other', [])).toBe('23514');
  });

  it('has run every migration exactly once', async () => {
    const rows = await t.db.query('SELECT name FROM migrations ORDER BY id');
    expect(rows.map((r: { name: string }) => r.name)).toEqual(t.db.migrations.map((m) => m.name));
    expect(await t.db.showMigrations()).toBe(false);
  });
});
