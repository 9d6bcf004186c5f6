import request from 'supertest';
import { insertVideo, guestFrom } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

/** Every admin route besides refresh-views and clear-cache, with a body an admin could send. */
const ADMIN_ROUTES: [method: 'get' | 'post', url: string, body?: object][] = [
  ['post', '/api/categories', { name: 'Guarded Category' }],
  ['post', '/api/performers', { name: 'Guarded Performer' }],
  ['post', '/api/admin/update-video', { id: 1, title: 'Guarded' }],
  ['post', '/api/admin/delete-video', { id: 1 }],
  ['post', '/api/admin/update-thumbnail', { uploadPath: '/thumbs/a/poster.jpg' }],
  ['get', '/api/admin/jobs'],
  ['get', '/api/admin/jobs/1'],
  ['post', '/api/admin/jobs/1/retry'],
];

describe('Admin (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', COUNTER_FLUSH_MS: '3600000', INGEST_WORKER: 'false' });
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

  describe.each(ADMIN_ROUTES)('%s %s', (method, url, body) => {
    it('answers 401 without a token and 403 for a member, in the error shape', async () => {
      const anonymous = await request(t.http)[method](url).send(body);
      expect({ status: anonymous.status, body: anonymous.body }).toEqual({
        status: 401,
        body: { error: 'Authentication required', statusCode: 401 },
      });
      const asMember = await request(t.http)[method](url).set(bearer(member)).send(body);
      expect({ status: asMember.status, body: asMember.body }).toEqual({
        status: 403,
        body: { error: 'You are not allowed to do this', statusCode: 403 },
      });
    });
  });

  it('documents every admin route in the OpenAPI document, with bearer auth and its bodies', async () => {
    const doc = (await request(t.http).get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { security?: object[]; requestBody?: { content: Record<string, unknown> }; responses: Record<string, unknown> }>>;
    };
    for (const [method, url] of ADMIN_ROUTES) {
      const template = url.replace(/\/1(?=\/|$)/, '/{id}');
      const op = doc.paths[template]?.[method];
      expect({ route: `${method} ${template}`, documented: Boolean(op) }).toEqual({ route: `${method} ${template}`, documented: true });
      expect(op.security).toEqual(expect.arrayContaining([{ bearer: [] }]));
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(Object.keys(doc.paths['/api/admin/update-video'].post.requestBody?.content ?? {})).toEqual(['application/json']);
    expect(Object.keys(doc.paths['/api/admin/update-thumbnail'].post.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    // The public lists stay public (security: [], docs/api-conventions.md).
    expect(doc.paths['/api/categories'].get.security).toEqual([]);
  });

  it('refresh-views writes buffered views and likes now and recomputes trending', async () => {
    const id = await insertVideo(t.db, { views: 1 });
    await request(t.http).post('/api/video/increment-views').set(guestFrom('r1')).send({ videoId: id }).expect(200);
    await request(t.http).post('/api/video/increment-likes').set(guestFrom('r1')).send({ videoId: id }).expect(200);
    await request(t.http).post('/api/video/add-trending').set(guestFrom('r1')).send({ videoId: id }).expect(204);
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
