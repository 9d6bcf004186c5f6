import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

/** Content removal requests: beyond the contract, the public form's route and the admins' queue. */
describe('Content removal requests (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let first: number;
  let second: number;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://hunktube.example' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    first = await insertVideo(t.db, { title: 'Locker Room Talk' });
    second = await insertVideo(t.db, { title: 'Beach House Weekend' });
  });
  afterAll(() => t.close());

  const valid = () => ({
    urls: [`https://hunktube.example/video/${first}`],
    reason: 'no-consent',
    details: 'That is me, and I never agreed to this being online.',
    contact: 'me@example.com',
    good_faith: true,
  });
  const file = (body: unknown) => request(t.http).post('/api/removal-requests').send(body as object);
  const count = async () => Number((await t.db.query('SELECT count(*)::int AS n FROM removal_requests'))[0].n);
  const openList = (user: TestUser = admin) => request(t.http).get('/api/admin/removal-requests').set(bearer(user));
  const close = (id: number | string, body: unknown, user: TestUser = admin) =>
    request(t.http).post(`/api/admin/removal-requests/${id}/close`).set(bearer(user)).send(body as object);

  describe('POST /api/removal-requests', () => {
    beforeEach(() => t.db.query('DELETE FROM removal_requests'));

    it('files a request from anyone, signed in or not, and answers its number and videos', async () => {
      const res = await file(valid()).expect(201);
      expect(res.body).toEqual({ id: expect.any(Number), video_ids: [first] });
      const [row] = await t.db.query('SELECT video_ids, reason, details, contact, state, closed_at FROM removal_requests WHERE id = $1', [res.body.id]);
      expect(row).toEqual({
        video_ids: [first],
        reason: 'no-consent',
        details: 'That is me, and I never agreed to this being online.',
        contact: 'me@example.com',
        state: 'open',
        closed_at: null,
      });
      await request(t.http).post('/api/removal-requests').set(bearer(member)).send(valid()).expect(201);
      expect(await count()).toBe(2);
    });

    it('reads watch-page addresses in every form and bare ids, once each, in the order given', async () => {
      const res = await file({
        ...valid(),
        urls: [`https://hunktube.example/video/${second}?t=90`, `/video/${first}`, String(second), ` https://HUNKTUBE.example/video/${first}#top `],
      }).expect(201);
      expect(res.body.video_ids).toEqual([second, first]);
    });

    it("takes addresses of the host the form was sent to, as well as PUBLIC_URL's", async () => {
      const res = await file({ ...valid(), urls: [`http://mirror.example:8080/video/${second}`] })
        .set('Host', 'mirror.example:8080')
        .expect(201);
      expect(res.body.video_ids).toEqual([second]);
    });

    it.each([
      [`https://evil.example/video/1`],
      [`https://hunktube.example.evil.example/video/1`],
      [`http://mirror.example:8080/video/1`],
    ])('refuses %s, an address of another site, and files nothing', async (url) => {
      const before = await count();
      const res = await file({ ...valid(), urls: [url] }).expect(400);
      expect(res.body).toEqual({ error: `Not the address of a video on this site: ${url}`, statusCode: 400 });
      expect(await count()).toBe(before);
    });

    it('trims the contact and details, and takes a request without details', async () => {
      const { details: _details, ...withoutDetails } = valid();
      const res = await file({ ...withoutDetails, contact: '  me@example.com  ' }).expect(201);
      const [row] = await t.db.query('SELECT details, contact FROM removal_requests WHERE id = $1', [res.body.id]);
      expect(row).toEqual({ details: '', contact: 'me@example.com' });
    });

    it.each([
      ['an address that is not a video', { urls: ['https://hunktube.example/categories/bears'] }, 'Not the address of a video on this site: https://hunktube.example/categories/bears'],
      ['an empty address', { urls: ['  '] }, 'Not the address of a video on this site: (empty)'],
      ['no addresses', { urls: [] }, 'Give the address of at least one video'],
      ['more than 20 addresses', { urls: Array.from({ length: 21 }, () => '/video/1') }, 'Give at most 20 video addresses in one request'],
      ['addresses that are not a list', { urls: '/video/1' }, 'urls must be a list of video addresses'],
      ['an address that is not a string', { urls: [12] }, 'urls must be a list of video addresses'],
      ['an address over 500 characters', { urls: [`/video/1?${'x'.repeat(500)}`] }, 'A video address is at most 500 characters'],
      ['an unknown reason', { reason: 'boredom' }, 'reason must be one of: underage, no-consent, illegal, copyright, other'],
      ['no contact', { contact: undefined }, 'Give an e-mail address or another way to reach you'],
      ['a blank contact', { contact: '   ' }, 'Give an e-mail address or another way to reach you'],
      ['a contact over 200 characters', { contact: `${'a'.repeat(195)}@x.example` }, 'contact is at most 200 characters'],
      ['details over 4000 characters', { details: 'x'.repeat(4001) }, 'details is at most 4000 characters'],
      ['details that are not a string', { details: 5 }, 'details must be a string'],
      ['no good-faith statement', { good_faith: undefined }, 'Confirm that the request is made in good faith'],
      ['a good-faith statement of false', { good_faith: false }, 'Confirm that the request is made in good faith'],
      ['a good-faith statement as text', { good_faith: 'true' }, 'Confirm that the request is made in good faith'],
      ['a field it does not know', { video_id: 1 }, 'property video_id should not exist'],
    ])('answers 400 for %s and stores nothing', async (_case, change, message) => {
      const res = await file({ ...valid(), ...change }).expect(400);
      expect(res.body).toEqual({ error: message, statusCode: 400 });
      expect(await count()).toBe(0);
    });

    it('answers 400 naming a video that is not on the site, and stores nothing', async () => {
      const gone = await insertVideo(t.db);
      await t.db.query('DELETE FROM videos WHERE id = $1', [gone]);
      const res = await file({ ...valid(), urls: [`/video/${first}`, `/video/${gone}`] }).expect(400);
      expect(res.body).toEqual({ error: `There is no video ${gone} on this site (it may have been removed already)`, statusCode: 400 });
      expect(await count()).toBe(0);
    });

    it('answers 400 for a body that is not JSON, and 400 for an empty one', async () => {
      await request(t.http).post('/api/removal-requests').set('Content-Type', 'application/json').send('{"urls":').expect(400);
      await request(t.http).post('/api/removal-requests').send({}).expect(400);
      expect(await count()).toBe(0);
    });
  });

  describe('the admins\u2019 queue', () => {
    const at = async (reason: string, createdAt: string, videoIds: number[] = [first]) => {
      const [{ id }] = await t.db.query<{ id: number }[]>(
        `INSERT INTO removal_requests (video_ids, reason, contact, created_at) VALUES ($1::int[], $2, 'x@example.com', $3) RETURNING id`,
        [videoIds, reason, createdAt],
      );
      return Number(id);
    };
    beforeEach(() => t.db.query('DELETE FROM removal_requests'));

    it('refuses visitors (401) and members (403) on every admin route', async () => {
      const id = await at('other', '2026-01-01T00:00:00Z');
      await request(t.http).get('/api/admin/removal-requests').expect(401);
      await openList(member).expect(403);
      await request(t.http).post(`/api/admin/removal-requests/${id}/close`).send({ state: 'resolved' }).expect(401);
      await close(id, { state: 'resolved' }, member).expect(403);
      const [row] = await t.db.query('SELECT state FROM removal_requests WHERE id = $1', [id]);
      expect(row.state).toBe('open');
    });

    it('lists open requests urgent first, then oldest first, with the videos as they are now', async () => {
      const copyright = await at('copyright', '2026-01-01T00:00:00Z');
      const underage = await at('underage', '2026-01-03T00:00:00Z', [second, first]);
      const noConsent = await at('no-consent', '2026-01-02T00:00:00Z');
      const other = await at('other', '2026-01-02T00:00:00Z');
      const res = await openList().expect(200);
      expect(res.body.data.map((r: { id: number }) => r.id)).toEqual([noConsent, underage, copyright, other]);
      expect(res.body.data[1]).toEqual({
        id: underage,
        reason: 'underage',
        urgent: true,
        videos: [
          { id: second, title: 'Beach House Weekend', status: 'ready' },
          { id: first, title: 'Locker Room Talk', status: 'ready' },
        ],
        details: '',
        contact: 'x@example.com',
        state: 'open',
        created_at: '2026-01-03T00:00:00.000Z',
        closed_at: null,
      });
      expect(res.body.data[2].urgent).toBe(false);
    });

    it('shows a deleted video with a null title and status, and keeps the request', async () => {
      const doomed = await insertVideo(t.db, { title: 'Doomed' });
      const id = await at('no-consent', '2026-01-01T00:00:00Z', [doomed]);
      await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: doomed }).expect(200);
      const res = await openList().expect(200);
      expect(res.body.data).toEqual([expect.objectContaining({ id, videos: [{ id: doomed, title: null, status: null }] })]);
    });

    it('closes a request as resolved or dismissed, once, and lists closed ones most recent first', async () => {
      const a = await at('underage', '2026-01-01T00:00:00Z');
      const b = await at('copyright', '2026-01-02T00:00:00Z');
      const resolved = await close(a, { state: 'resolved' }).expect(200);
      expect(resolved.body.data).toEqual(expect.objectContaining({ id: a, state: 'resolved', closed_at: expect.any(String) }));
      const [row] = await t.db.query('SELECT closed_by FROM removal_requests WHERE id = $1', [a]);
      expect(row.closed_by).toBe(admin.id);
      await close(b, { state: 'dismissed' }).expect(200);

      const again = await close(a, { state: 'dismissed' }).expect(409);
      expect(again.body).toEqual({ error: 'This removal request is already closed', statusCode: 409 });
      expect((await openList().expect(200)).body.data).toEqual([]);
      const closed = await request(t.http).get('/api/admin/removal-requests?state=closed').set(bearer(admin)).expect(200);
      expect(closed.body.data.map((r: { id: number; state: string }) => [r.id, r.state])).toEqual([
        [b, 'dismissed'],
        [a, 'resolved'],
      ]);
    });

    it('answers 404 for an unknown request and 400 for a bad id, state or extra field, changing nothing', async () => {
      const id = await at('other', '2026-01-01T00:00:00Z');
      expect((await close(id + 1000, { state: 'resolved' }).expect(404)).body).toEqual({ error: 'Removal request not found', statusCode: 404 });
      await close('abc', { state: 'resolved' }).expect(400);
      await close(0, { state: 'resolved' }).expect(400);
      expect((await close(id, { state: 'open' }).expect(400)).body.error).toBe('state must be resolved or dismissed');
      await close(id, {}).expect(400);
      await close(id, { state: 'resolved', note: 'hi' }).expect(400);
      await request(t.http).get('/api/admin/removal-requests?state=all').set(bearer(admin)).expect(400);
      await request(t.http).get('/api/admin/removal-requests?page=2').set(bearer(admin)).expect(400);
      const [row] = await t.db.query('SELECT state, closed_at FROM removal_requests WHERE id = $1', [id]);
      expect(row).toEqual({ state: 'open', closed_at: null });
    });
  });

  // Last: a second app in this process takes over Passport's JWT strategy, so `t` cannot verify tokens after it.
  describe('rate limit', () => {
    let limited: TestApp;
    let videoId: number;
    beforeAll(async () => {
      limited = await createTestApp({ RATE_LIMIT_WRITE: '2' });
      videoId = await insertVideo(limited.db);
    });
    afterAll(() => limited.close());

    it('counts requests against RATE_LIMIT_WRITE per address: 429 past it, with Retry-After', async () => {
      const body = { ...valid(), urls: [`/video/${videoId}`] };
      await request(limited.http).post('/api/removal-requests').send(body).expect(201);
      await request(limited.http).post('/api/removal-requests').send(body).expect(201);
      const res = await request(limited.http).post('/api/removal-requests').send(body).expect(429);
      expect(res.body).toEqual({ error: 'Too many requests, please try again later', statusCode: 429 });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });
});
