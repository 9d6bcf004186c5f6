import request from 'supertest';
import { SiteStatsService } from '../src/videos/site-stats.service';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

interface Day {
  day: string;
  views: number;
  likes: number;
  members: number;
  uploads: number;
  ingests_done: number;
  ingests_failed: number;
}

describe('The site dashboard for admins (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  const ids: Record<string, number> = {};
  let today: string;

  beforeAll(async () => {
    // No job runner: the jobs this test writes stay as written (a queued one would be taken and failed).
    t = await createTestApp({ INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    // Two more members: one five days ago, one 40 days ago.
    for (const daysAgo of [5, 40]) {
      const user = await registerUser(t.http);
      await t.db.query(`UPDATE users SET created_at = now() - make_interval(days => $2) WHERE id = $1`, [user.id, daysAgo]);
    }
    ids.a = await insertVideo(t.db, { title: 'Pool party', categories: ['Pool', 'Outdoor'], performers: ['Max'], duration: 120 });
    ids.b = await insertVideo(t.db, { title: 'Pool games', categories: ['Pool'], performers: ['Max', 'Leo'], duration: 600 });
    ids.c = await insertVideo(t.db, { title: 'Outdoor run', categories: ['Outdoor'], performers: ['Leo'], duration: 60 });
    ids.hidden = await insertVideo(t.db, { title: 'Still processing', categories: ['Outdoor'], status: 'processing' });
    [{ today }] = await t.db.query<{ today: string }[]>(`SELECT to_char(CURRENT_DATE, 'YYYY-MM-DD') AS today`);
  });
  afterAll(() => t.close());

  const dashboard = (query = '', user: TestUser | null = admin) => {
    const req = request(t.http).get(`/api/admin/dashboard${query}`);
    return user ? req.set(bearer(user)) : req;
  };
  const dayBefore = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  const sum = (days: Day[], key: keyof Day) => days.reduce((total, d) => total + Number(d[key]), 0);

  it('answers every day of the last 30 by default, oldest first, with zeros where nothing happened', async () => {
    const { body } = await dashboard().expect(200);
    expect(Object.keys(body).sort()).toEqual(['daily', 'days', 'ingest', 'rankings', 'removals', 'totals']);
    expect(body.days).toBe(30);
    expect(body.daily).toHaveLength(30);
    expect(body.daily[0].day).toBe(dayBefore(29));
    expect(body.daily[29].day).toBe(today);
    expect(Object.keys(body.daily[0]).sort()).toEqual(['day', 'ingests_done', 'ingests_failed', 'likes', 'members', 'uploads', 'views']);
    expect(body.daily[0]).toEqual({ day: dayBefore(29), views: 0, likes: 0, members: 0, uploads: 0, ingests_done: 0, ingests_failed: 0 });
    // Rankings are computed on the first read of a new deployment; nothing was watched yet.
    expect(body.rankings.map((r: { period: string }) => r.period)).toEqual(['day', 'week']);
    expect(body.rankings[0]).toMatchObject({ videos: [], categories: [], performers: [] });
    expect(Date.parse(body.rankings[0].computed_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('counts new members by the day their account was made', async () => {
    const { body } = await dashboard().expect(200);
    expect(body.daily[29].members).toBe(2); // the admin and the member, today
    expect(body.daily[24].members).toBe(1);
    expect(body.totals.members).toBe(3); // the one of 40 days ago is outside the period
    expect((await dashboard('?days=90').expect(200)).body.totals.members).toBe(4);
    expect((await dashboard('?days=7').expect(200)).body.totals.members).toBe(3);
  });

  it('shows the site’s views and likes per day as the counters wrote them', async () => {
    await t.db.query(
      `INSERT INTO site_daily_stats (day, views, likes) VALUES (CURRENT_DATE - 2, 40, 3), (CURRENT_DATE - 29, 5, 0), (CURRENT_DATE - 60, 100, 9)`,
    );
    const { body } = await dashboard().expect(200);
    expect(body.daily[27]).toMatchObject({ day: dayBefore(2), views: 40, likes: 3 });
    expect(body.daily[0]).toMatchObject({ views: 5, likes: 0 });
    expect(body.totals).toMatchObject({ views: 45, likes: 3 });
    const ninety = (await dashboard('?days=90').expect(200)).body;
    expect(ninety.daily).toHaveLength(90);
    expect(ninety.totals).toMatchObject({ views: 145, likes: 12 });
    expect(sum(ninety.daily, 'views')).toBe(145);
  });

  it('counts uploads and ingest outcomes per day, what waits now, and the processing time per minute of video', async () => {
    // `media` is the seconds of video a done ingest recorded, with its seconds of processing (see the ingest e2e test).
    // Each job starts at the first moment of its day, so that it ends the same day whatever the time of the run.
    const job = (video: number | null, kind: string, state: string, createdDaysAgo: number, took: number | null, media: number | null = null) =>
      t.db.query(
        `INSERT INTO ingest_jobs (video_id, kind, state, created_at, started_at, finished_at, media_seconds, processing_seconds)
         VALUES ($1, $2, $3, (CURRENT_DATE - $4::int)::timestamptz, (CURRENT_DATE - $4::int)::timestamptz,
                 CASE WHEN $5::int IS NULL THEN NULL ELSE (CURRENT_DATE - $4::int)::timestamptz + make_interval(secs => $5) END,
                 $6, CASE WHEN $6::int IS NULL THEN NULL ELSE $5::int END)`,
        [video, kind, state, createdDaysAgo, took, media],
      );
    await job(ids.a, 'ingest', 'done', 1, 60, 120); // 2 minutes of video in 60 s
    await job(ids.b, 'ingest', 'done', 3, 600, 600); // 10 minutes of video in 600 s
    await job(ids.c, 'ingest', 'done', 3, 77); // done before the jobs recorded their video: not in the time per minute
    await job(ids.c, 'ingest', 'failed', 3, 5);
    await job(ids.hidden, 'ingest', 'running', 0, null);
    await job(null, 'ingest', 'queued', 0, null);
    await job(ids.a, 'thumbnails', 'done', 1, 999, 120); // another kind of job: not an upload
    await job(ids.c, 'ingest', 'done', 50, 100, 60); // outside the period
    const { body } = await dashboard().expect(200);
    expect(body.daily[28]).toMatchObject({ day: dayBefore(1), uploads: 1, ingests_done: 1, ingests_failed: 0 });
    expect(body.daily[26]).toMatchObject({ uploads: 3, ingests_done: 2, ingests_failed: 1 });
    expect(body.daily[29]).toMatchObject({ uploads: 2, ingests_done: 0, ingests_failed: 0 });
    expect(body.totals).toMatchObject({ uploads: 6, ingests_done: 3, ingests_failed: 1 });
    // (60 + 600) s over (2 + 10) minutes of video.
    expect(body.ingest).toEqual({ queued: 1, running: 1, media_minutes: 12, seconds_per_media_minute: 55 });
    expect((await dashboard('?days=7').expect(200)).body.ingest.seconds_per_media_minute).toBe(55);
  });

  it('ranks the most watched published videos, categories and performers of today and of the week', async () => {
    await t.db.query(
      `INSERT INTO video_daily_stats (video_id, day, views, likes, counted_views) VALUES
         ($1, CURRENT_DATE, 1, 0, 5), ($2, CURRENT_DATE, 1, 0, 8), ($3, CURRENT_DATE, 1, 0, 50),
         ($1, CURRENT_DATE - 3, 1, 0, 30), ($3, CURRENT_DATE - 10, 1, 0, 999)`,
      [ids.a, ids.b, ids.hidden],
    );
    // Stored rankings are what the dashboard reads: unchanged until the task or a refresh computes them again.
    expect((await dashboard().expect(200)).body.rankings[0].videos).toEqual([]);
    await request(t.http).post('/api/admin/refresh-views').set(bearer(admin)).send({}).expect(200);
    const [day, week] = (await dashboard().expect(200)).body.rankings;
    expect(day.videos).toEqual([
      { id: ids.b, title: 'Pool games', views: 8 },
      { id: ids.a, title: 'Pool party', views: 5 },
    ]);
    expect(week.videos).toEqual([
      { id: ids.a, title: 'Pool party', views: 35 },
      { id: ids.b, title: 'Pool games', views: 8 },
    ]);
    expect(day.categories).toEqual([
      { id: 'pool', name: 'Pool', views: 13, videos: 2 },
      { id: 'outdoor', name: 'Outdoor', views: 5, videos: 1 },
    ]);
    expect(week.performers).toEqual([
      { id: 'max', name: 'Max', views: 43, videos: 2 },
      { id: 'leo', name: 'Leo', views: 8, videos: 1 },
    ]);
  });

  it('drops a ranked video that is no longer published, and shows names as they are now', async () => {
    await t.db.query(`UPDATE videos SET status = 'processing' WHERE id = $1`, [ids.b]);
    await t.db.query(`UPDATE performers SET name = 'Max Power' WHERE id = 'max'`);
    try {
      const [day] = (await dashboard().expect(200)).body.rankings;
      expect(day.videos.map((v: { id: number }) => v.id)).toEqual([ids.a]);
      expect(day.performers[0]).toMatchObject({ id: 'max', name: 'Max Power' });
    } finally {
      await t.db.query(`UPDATE videos SET status = 'ready' WHERE id = $1`, [ids.b]);
    }
  });

  it('recomputes the rankings on its schedule', async () => {
    await t.db.query(`UPDATE site_rankings SET computed_at = now() - interval '1 hour', videos = '[]'::jsonb`);
    await t.app.get(SiteStatsService).recompute();
    const [day] = (await dashboard().expect(200)).body.rankings;
    expect(day.videos).toHaveLength(2);
    expect(Date.parse(day.computed_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('groups the open removal requests by how long they have waited and by reason', async () => {
    const file = (reason: string, hoursAgo: number, state = 'open') =>
      t.db.query(
        `INSERT INTO removal_requests (video_ids, reason, contact, state, created_at, last_reported_at, closed_at)
         VALUES ($1, $2, 'someone@example.com', $3::varchar, now() - make_interval(hours => $4), now() - make_interval(hours => $4),
                 CASE WHEN $3::varchar = 'open' THEN NULL ELSE now() END)`,
        [[ids.a], reason, state, hoursAgo],
      );
    await file('underage', 2);
    await file('copyright', 30);
    await file('copyright', 24 * 10);
    await file('other', 24 * 45);
    await file('illegal', 5, 'resolved');
    const { body } = await dashboard().expect(200);
    expect(body.removals.open).toBe(4);
    expect(Date.parse(body.removals.oldest_at)).toBeLessThan(Date.now() - 44 * 86_400_000);
    expect(body.removals.by_age).toEqual([
      { band: 'under-1-day', count: 1 },
      { band: '1-7-days', count: 1 },
      { band: '7-30-days', count: 1 },
      { band: 'over-30-days', count: 1 },
    ]);
    expect(body.removals.by_reason).toEqual([
      { reason: 'underage', count: 1 },
      { reason: 'no-consent', count: 0 },
      { reason: 'illegal', count: 0 },
      { reason: 'copyright', count: 2 },
      { reason: 'other', count: 1 },
    ]);
  });

  it('answers an empty removal summary with a null oldest', async () => {
    await t.db.query(`UPDATE removal_requests SET state = 'dismissed', closed_at = now() WHERE state = 'open'`);
    const { body } = await dashboard('?days=7').expect(200);
    expect(body.removals).toMatchObject({ open: 0, oldest_at: null });
    expect(body.removals.by_age.every((b: { count: number }) => b.count === 0)).toBe(true);
  });

  describe('refusals', () => {
    it('answers 401 without a session and 403 to a member', async () => {
      expect((await dashboard('', null).expect(401)).body).toMatchObject({ statusCode: 401 });
      expect((await dashboard('', member).expect(403)).body).toMatchObject({ statusCode: 403 });
    });

    it.each(['?days=14', '?days=abc', '?days=', '?days=7&extra=1', '?days=-7', '?days=7&days=30'])('answers 400 for %s', async (query) => {
      const { body } = await dashboard(query).expect(400);
      expect(body.statusCode).toBe(400);
      expect(typeof body.error).toBe('string');
    });
  });
});
