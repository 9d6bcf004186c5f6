import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

describe('Admin (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ COUNTER_FLUSH_MS: '3600000' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
  });
  afterAll(() => t.close());

  describe.each(['refresh-views', 'clear-cache'])('POST /api/admin/%s', (route) => {
    it('answers 401 without a token and 403 for a member', async () => {
      await request(t.http).post(`/api/admin/${route}`).expect(401);
      const res = await request(t.http).post(`/api/admin/${route}`).set(bearer(member)).expect(403);
      expect(res.body).toEqual({ error: 'You are not allowed to do this', statusCode: 403 });
    });

    it('answers 400 for an unexpected body field', async () => {
      await request(t.http).post(`/api/admin/${route}`).set(bearer(admin)).send({ everything: true }).expect(400);
    });
  });

  it('refresh-views writes buffered views and likes now and recomputes trending', async () => {
    const id = await insertVideo(t.db, { views: 1 });
    await request(t.http).post('/api/video/increment-views').set('User-Agent', 'r1').send({ videoId: id }).expect(200);
    await request(t.http).post('/api/video/increment-likes').set('User-Agent', 'r1').send({ videoId: id }).expect(200);
    await request(t.http).post('/api/video/add-trending').set('User-Agent', 'r1').send({ videoId: id }).expect(204);
    await t.db.query('INSERT INTO video_daily_stats (video_id, day, views) VALUES ($1, CURRENT_DATE - 1, 10)', [id]);
    const res = await request(t.http).post('/api/admin/refresh-views').set(bearer(admin)).expect(200);
    expect(res.body).toEqual({ error: null, flushed: 1 });
    const [row] = await t.db.query('SELECT views, likes, trending_score FROM videos WHERE id = $1', [id]);
    expect({ views: Number(row.views), likes: Number(row.likes) }).toEqual({ views: 2, likes: 1 });
    expect(Number(row.trending_score)).toBeCloseTo(1 + 10 * 0.8);
  });

  it('clear-cache empties the cached listing totals', async () => {
    const before = (await request(t.http).get('/api/videos?limit=1').expect(200)).body.total;
    await insertVideo(t.db);
    expect((await request(t.http).get('/api/videos?limit=1').expect(200)).body.total).toBe(before);
    await request(t.http).post('/api/admin/clear-cache').set(bearer(admin)).expect(200, { error: null });
    expect((await request(t.http).get('/api/videos?limit=1').expect(200)).body.total).toBe(before + 1);
  });
});
