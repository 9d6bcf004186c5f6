import request from 'supertest';
import { CountersService } from '../src/videos/counters/counters.service';
import { DAILY_STATS_KEEP_DAYS } from '../src/videos/trending.service';
import { VideosRepository } from '../src/videos/videos.repository';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

describe('A video’s statistics for admins (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  const ids: Record<string, number> = {};
  let today: string;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    ids.a = await insertVideo(t.db, { title: 'Pool party', categories: ['Pool', 'Outdoor'], views: 50, likes: 4 });
    ids.b = await insertVideo(t.db, { title: 'Pool games', categories: ['Pool'], views: 100 });
    ids.c = await insertVideo(t.db, { title: 'Outdoor run', categories: ['Outdoor'], views: 10 });
    ids.hidden = await insertVideo(t.db, { title: 'Still processing', categories: ['Pool'], status: 'processing' });
    await t.db.query('UPDATE videos SET trending_score = 10 WHERE id = $1', [ids.a]);
    await t.db.query('UPDATE videos SET trending_score = 20 WHERE id = $1', [ids.b]);
    // Counted views and likes of earlier days; `views` beside them holds the trending signals, not shown here.
    await t.db.query(
      `INSERT INTO video_daily_stats (video_id, day, views, likes, counted_views) VALUES
         ($1, CURRENT_DATE - 3, 99, 1, 7), ($1, CURRENT_DATE - 29, 99, 0, 2), ($1, CURRENT_DATE - 100, 99, 5, 9),
         ($2, CURRENT_DATE - 3, 99, 2, 40)`,
      [ids.a, ids.b],
    );
    [{ today }] = await t.db.query<{ today: string }[]>(`SELECT to_char(CURRENT_DATE, 'YYYY-MM-DD') AS today`);
  });
  afterAll(() => t.close());

  const stats = (id: number | string, query = '', user: TestUser | null = admin) => {
    const req = request(t.http).get(`/api/admin/videos/${id}/stats${query}`);
    return user ? req.set(bearer(user)) : req;
  };
  const dayBefore = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

  it('answers each day of the last 30 by default, oldest first, with its counted views and likes', async () => {
    const { body } = await stats(ids.a).expect(200);
    expect(Object.keys(body).sort()).toEqual(['categories', 'daily', 'days', 'id', 'lifetime', 'status', 'title', 'trending']);
    expect(body).toMatchObject({ id: ids.a, title: 'Pool party', status: 'ready', days: 30 });
    expect(body.daily).toHaveLength(30);
    expect(body.daily[0].day).toBe(dayBefore(29));
    expect(body.daily[29]).toEqual({ day: today, views: 0, likes: 0 });
    expect(body.daily[0]).toEqual({ day: dayBefore(29), views: 2, likes: 0 });
    expect(body.daily[26]).toEqual({ day: dayBefore(3), views: 7, likes: 1 });
    expect(body.daily.filter((d: { views: number }) => d.views > 0)).toHaveLength(2);
  });

  it.each([7, 90])('answers %i days when asked', async (days) => {
    const { body } = await stats(ids.a, `?days=${days}`).expect(200);
    expect(body.days).toBe(days);
    expect(body.daily).toHaveLength(days);
    expect(body.daily.at(-1).day).toBe(today);
    // The row of 100 days ago is outside every period.
    expect(body.daily.reduce((sum: number, d: { views: number }) => sum + d.views, 0)).toBe(days === 7 ? 7 : 9);
  });

  it('ranks the video by trending and by views in each of its categories', async () => {
    const { body } = await stats(ids.a).expect(200);
    expect(body.trending).toEqual({ score: 10, rank: 2, of: 3 });
    expect(body.categories).toEqual([
      { id: 'outdoor', name: 'Outdoor', rank: 1, of: 2 },
      { id: 'pool', name: 'Pool', rank: 2, of: 2 },
    ]);
    expect((await stats(ids.b).expect(200)).body.trending).toEqual({ score: 20, rank: 1, of: 3 });
  });

  it('shows an unpublished video’s figures without a rank', async () => {
    const { body } = await stats(ids.hidden).expect(200);
    expect(body).toMatchObject({ status: 'processing', trending: { rank: null, of: 3 }, categories: [{ id: 'pool', rank: null, of: 2 }] });
  });

  it('counts today’s views as they are counted: lifetime at once, the day once written', async () => {
    const viewer = (n: number) => ({ 'X-Forwarded-For': `203.0.113.${n}` });
    for (let n = 1; n <= 3; n += 1) await request(t.http).post('/api/video/increment-views').set(viewer(n)).send({ videoId: ids.c }).expect(200);
    const before = (await stats(ids.c, '?days=7').expect(200)).body;
    expect(before.lifetime).toEqual({ views: 13, likes: 0 });
    await t.app.get(CountersService).flush();
    const after = (await stats(ids.c, '?days=7').expect(200)).body;
    expect(after.lifetime).toEqual({ views: 13, likes: 0 });
    expect(after.daily.at(-1)).toEqual({ day: today, views: 3, likes: 0 });
    const [site] = await t.db.query<{ views: number }[]>('SELECT views FROM site_daily_stats WHERE day = CURRENT_DATE');
    expect(Number(site.views)).toBeGreaterThanOrEqual(3);
  });

  it('keeps per-video days bounded: rows older than the kept period go', async () => {
    await t.db.query(`INSERT INTO video_daily_stats (video_id, day, views, likes, counted_views) VALUES ($1, CURRENT_DATE - ${DAILY_STATS_KEEP_DAYS + 5}, 1, 1, 1)`, [ids.c]);
    expect(await t.app.get(VideosRepository).pruneDailyStats(DAILY_STATS_KEEP_DAYS)).toBe(1);
    const [{ n }] = await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM video_daily_stats WHERE day < CURRENT_DATE - $1::int', [DAILY_STATS_KEEP_DAYS]);
    expect(Number(n)).toBe(0);
    // The 100-day-old row is kept.
    expect((await stats(ids.a, '?days=90').expect(200)).body.days).toBe(90);
  });

  describe('refusals', () => {
    it('answers 401 without a session and 403 to a member', async () => {
      await stats(ids.a, '', null).expect(401);
      const res = await stats(ids.a, '', member).expect(403);
      expect(res.body).toMatchObject({ statusCode: 403 });
    });

    it('answers 404 for a video that does not exist', async () => {
      expect((await stats(2_147_483_647).expect(404)).body).toEqual({ error: 'Video not found', statusCode: 404 });
    });

    it.each(['0', 'abc', '1.5'])('answers 400 for the id %j', async (id) => {
      expect((await stats(id).expect(400)).body).toEqual({ error: 'id must be a positive integer', statusCode: 400 });
    });

    it.each(['?days=14', '?days=abc', '?days=', '?days=7&extra=1', '?days=-7'])('answers 400 for %s', async (query) => {
      await stats(ids.a, query).expect(400);
    });
  });
});
