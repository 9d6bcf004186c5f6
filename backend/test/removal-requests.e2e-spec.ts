import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

let addressCounter = 0;
/** A client address no other test uses: each test that files gets budgets of its own. */
const freshAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

/** Runs `tasks` `size` at a time, in order of the batches. */
async function inBatches<T>(tasks: (() => Promise<T>)[], size: number): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += size) results.push(...(await Promise.all(tasks.slice(i, i + size).map((task) => task()))));
  return results;
}

/** Where the budget lives: each process's memory, or with REDIS_URL one Redis that every process shares. */
const setups: [string, (prefix: string) => Record<string, string>, boolean][] = [['in process', () => ({}), false]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  setups.push(['in Redis', (prefix) => ({ REDIS_URL: url, REDIS_PREFIX: prefix }), true]);
}

/**
 * Content removal requests: beyond the contract, the public form's route and the admins' queue. The app trusts
 * the loopback proxy, so each request says which client it comes from in X-Forwarded-For, as behind nginx.
 */
describe('Content removal requests (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let first: number;
  let second: number;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://hunktube.example', TRUST_PROXY: 'loopback' });
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
  /** Files `body` from the client `from` (a new one unless given), signed in as `user` if given. */
  const file = (body: unknown, { from = freshAddress(), user }: { from?: string; user?: TestUser } = {}) => {
    const req = request(t.http).post('/api/removal-requests').set('X-Forwarded-For', from);
    return (user ? req.set(bearer(user)) : req).send(body as object);
  };
  const count = async () => Number((await t.db.query('SELECT count(*)::int AS n FROM removal_requests'))[0].n);
  const rowOf = async (id: number) =>
    (await t.db.query('SELECT reports, reporters, cardinality(reporter_keys) AS keys, details, contact, created_at, last_reported_at FROM removal_requests WHERE id = $1', [id]))[0];
  const openList = (user: TestUser = admin) => request(t.http).get('/api/admin/removal-requests').set(bearer(user));
  const listPage = (query: string) => request(t.http).get(`/api/admin/removal-requests?${query}`).set(bearer(admin));
  const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((r) => r.id);
  const close = (id: number | string, body: unknown, user: TestUser = admin) =>
    request(t.http).post(`/api/admin/removal-requests/${id}/close`).set(bearer(user)).send(body as object);

  describe('POST /api/removal-requests', () => {
    beforeEach(() => t.db.query('DELETE FROM removal_requests'));

    it('files a request from anyone, signed in or not, and answers its number and videos', async () => {
      const res = await file(valid(), { from: '198.51.100.23' }).expect(201);
      expect(res.body).toEqual({ id: expect.any(Number), video_ids: [first], merged: false });
      const [row] = await t.db.query(
        'SELECT video_ids, reason, details, contact, state, closed_at, reports, reporters, reporter_keys, filed_by FROM removal_requests WHERE id = $1',
        [res.body.id],
      );
      expect(row).toEqual({
        video_ids: [first],
        reason: 'no-consent',
        details: 'That is me, and I never agreed to this being online.',
        contact: 'me@example.com',
        state: 'open',
        closed_at: null,
        reports: 1,
        reporters: 1,
        reporter_keys: [expect.stringMatching(/^[0-9a-f]{16}$/)],
        filed_by: row.reporter_keys[0],
      });
      // The sender is kept as a keyed hash of their network, never as the address.
      expect(JSON.stringify(row)).not.toContain('198.51.100');
      const signedIn = await file({ ...valid(), reason: 'illegal' }, { user: member }).expect(201);
      expect(signedIn.body).toEqual({ id: expect.any(Number), video_ids: [first], merged: false });
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
      ['a reason that is not a string', { reason: ['underage'] }, 'reason must be one of: underage, no-consent, illegal, copyright, other'],
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

  describe('a repeat of an open request', () => {
    beforeEach(() => t.db.query('DELETE FROM removal_requests'));

    it('is counted on it: 201 with its number and merged, one row, the first details and contact kept', async () => {
      const original = await file({ ...valid(), urls: [`/video/${first}`, `/video/${second}`] }).expect(201);
      const before = await rowOf(original.body.id);
      const repeat = await file({ ...valid(), urls: [`/video/${second}`, `/video/${first}`], details: 'Spam spam spam', contact: 'other@example.com' }).expect(201);
      expect(repeat.body).toEqual({ id: original.body.id, video_ids: [second, first], merged: true });
      expect(await count()).toBe(1);
      const after = await rowOf(original.body.id);
      expect(after).toEqual(
        expect.objectContaining({
          reports: 2,
          reporters: 2,
          keys: 2,
          details: 'That is me, and I never agreed to this being online.',
          contact: 'me@example.com',
          created_at: before.created_at,
        }),
      );
      expect(new Date(after.last_reported_at).getTime()).toBeGreaterThan(new Date(before.last_reported_at).getTime());
    });

    it('counts a repeat from the same sender as a report, not as another reporter', async () => {
      const from = freshAddress();
      const { body } = await file(valid(), { from }).expect(201);
      await file(valid(), { from }).expect(201);
      // Signed in or not, one network is one sender.
      await file(valid(), { from, user: member }).expect(201);
      expect(await rowOf(body.id)).toEqual(expect.objectContaining({ reports: 3, reporters: 1, keys: 1 }));
    });

    it('is merged when it names some of the videos of an open request with that reason', async () => {
      const { body } = await file({ ...valid(), urls: [`/video/${first}`, `/video/${second}`] }).expect(201);
      const part = await file({ ...valid(), urls: [`/video/${second}`] }).expect(201);
      expect(part.body).toEqual({ id: body.id, video_ids: [second], merged: true });
      expect(await count()).toBe(1);
    });

    it('fills in the details when the first sender gave none', async () => {
      const { details: _details, ...withoutDetails } = valid();
      const { body } = await file(withoutDetails).expect(201);
      await file({ ...valid(), details: 'Filmed without my knowledge.' }).expect(201);
      await file({ ...valid(), details: 'Something else entirely.' }).expect(201);
      expect((await rowOf(body.id)).details).toBe('Filmed without my knowledge.');
    });

    it('is filed anew for another reason, a video the open request does not name, or once that request is closed', async () => {
      const { body } = await file(valid()).expect(201);
      expect((await file({ ...valid(), reason: 'underage' }).expect(201)).body.merged).toBe(false);
      expect((await file({ ...valid(), urls: [`/video/${first}`, `/video/${second}`] }).expect(201)).body.merged).toBe(false);
      expect(await count()).toBe(3);
      await close(body.id, { state: 'dismissed' }).expect(200);
      // The wider request above names the video too: it takes the repeat now.
      const wider = await file(valid()).expect(201);
      expect(wider.body).toEqual(expect.objectContaining({ merged: true }));
      expect(wider.body.id).not.toBe(body.id);
      await close(wider.body.id, { state: 'dismissed' }).expect(200);
      expect((await file(valid()).expect(201)).body.merged).toBe(false);
    });

    it('merges copies sent at the same moment into one request', async () => {
      const answers = await Promise.all(Array.from({ length: 12 }, () => file(valid())));
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      expect(answers.filter((a) => !a.body.merged)).toHaveLength(1);
      expect(await count()).toBe(1);
      expect(await rowOf(answers[0].body.id)).toEqual(expect.objectContaining({ reports: 12, reporters: 12 }));
    });

    it('stops telling senders apart past 1000, and still counts their reports', async () => {
      const { body } = await file(valid()).expect(201);
      await t.db.query(
        `UPDATE removal_requests SET reporter_keys = ARRAY(SELECT lpad(i::text, 16, '0') FROM generate_series(1, 1000) i),
           reporters = 1000, reports = 1000 WHERE id = $1`,
        [body.id],
      );
      await file(valid()).expect(201);
      expect(await rowOf(body.id)).toEqual(expect.objectContaining({ reports: 1001, reporters: 1000, keys: 1000 }));
    });
  });

  describe('the budget of requests per hour', () => {
    beforeEach(() => t.db.query('DELETE FROM removal_requests'));

    it('takes 3 an hour from an address without an account, then answers 429 with Retry-After and files nothing', async () => {
      const from = freshAddress();
      for (const reason of ['underage', 'illegal', 'copyright']) await file({ ...valid(), reason }, { from }).expect(201);
      const res = await file({ ...valid(), reason: 'other' }, { from }).expect(429);
      expect(res.body).toEqual({
        error: 'Too many removal requests from your address: at most 3 an hour without signing in. Try again in 60 minutes, or sign in to send more',
        statusCode: 429,
      });
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await count()).toBe(3);
      // A repeat that would only be merged counts too, and another address has its own budget.
      await file({ ...valid(), reason: 'underage' }, { from }).expect(429);
      await file({ ...valid(), reason: 'other' }).expect(201);
    });

    it('counts an IPv6 client by its /64', async () => {
      for (const from of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:abcd::3']) await file(valid(), { from }).expect(201);
      await file(valid(), { from: '2001:db8:1:2:ffff:ffff:ffff:ffff' }).expect(429);
      await file(valid(), { from: '2001:db8:1:3::1' }).expect(201);
    });

    it('spends nothing on a request it refuses', async () => {
      const from = freshAddress();
      for (let i = 0; i < 5; i += 1) await file({ ...valid(), urls: ['https://evil.example/video/1'] }, { from }).expect(400);
      for (let i = 0; i < 5; i += 1) await file({ ...valid(), good_faith: false }, { from }).expect(400);
      for (let i = 0; i < 3; i += 1) await file(valid(), { from }).expect(201);
    });

    it('takes 10 an hour from a member account, and 30 from all the members on one address', async () => {
      const [a, b, c, d, e] = await Promise.all(Array.from({ length: 5 }, () => registerUser(t.http)));
      for (let i = 0; i < 10; i += 1) await file(valid(), { user: a }).expect(201);
      const spent = await file(valid(), { user: a }).expect(429);
      expect(spent.body).toEqual({ error: 'Too many removal requests from your account: at most 10 an hour. Try again in 60 minutes', statusCode: 429 });
      expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);

      const office = freshAddress();
      for (const user of [b, c, d]) for (let i = 0; i < 10; i += 1) await file(valid(), { user, from: office }).expect(201);
      const crowded = await file(valid(), { user: e, from: office }).expect(429);
      expect(crowded.body.error).toBe(
        'Too many removal requests from your address: at most 30 an hour from all accounts on it. Try again in 60 minutes',
      );
      // The address's own budget without an account is another one.
      await file(valid(), { from: office }).expect(201);
    });

    it("does not count an admin's requests", async () => {
      const from = freshAddress();
      for (let i = 0; i < 12; i += 1) await file(valid(), { from, user: admin }).expect(201);
    });
  });

  describe('the admins\u2019 queue', () => {
    /** A request straight into the table: filed at `createdAt`, by `filedBy` (a sender key), with `reporters`. */
    const at = async (
      reason: string,
      createdAt: string,
      videoIds: number[] = [first],
      { filedBy = null, reporters = 1, details = '' }: { filedBy?: string | null; reporters?: number; details?: string } = {},
    ) => {
      const [{ id }] = await t.db.query<{ id: number }[]>(
        `INSERT INTO removal_requests (video_ids, reason, contact, created_at, last_reported_at, filed_by, reporters, reports, details)
         VALUES ($1::int[], $2, 'x@example.com', $3, $3, $4, $5, $5, $6) RETURNING id`,
        [videoIds, reason, createdAt, filedBy, reporters, details],
      );
      return Number(id);
    };
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();
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
      expect(ids(res)).toEqual([noConsent, underage, copyright, other]);
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
        reports: 1,
        reporters: 1,
        created_at: '2026-01-03T00:00:00.000Z',
        last_reported_at: '2026-01-03T00:00:00.000Z',
        closed_at: null,
      });
      expect(res.body.data[2].urgent).toBe(false);
      expect(res.body).toEqual(
        expect.objectContaining({ page: 1, limit: 20, total: 4, counts: { underage: 1, 'no-consent': 1, illegal: 0, copyright: 1, other: 1 } }),
      );
    });

    it('puts a request more senders reported before one of fewer, within its urgency', async () => {
      const lone = await at('underage', day(0));
      const many = await at('illegal', day(5), [second], { reporters: 7 });
      const two = await at('no-consent', day(3), [first], { reporters: 2 });
      const popularCopyright = await at('copyright', day(0), [first], { reporters: 50 });
      expect(ids(await openList().expect(200))).toEqual([many, two, lone, popularCopyright]);
    });

    it("lets one sender's second request wait behind every other sender's first", async () => {
      const spam = await Promise.all(Array.from({ length: 5 }, (_, i) => at('underage', day(i), [first], { filedBy: 'aaaaaaaaaaaaaaaa' })));
      const genuine = await at('no-consent', day(10), [second], { filedBy: 'bbbbbbbbbbbbbbbb' });
      const older = await at('illegal', day(8), [second], { filedBy: 'cccccccccccccccc' });
      const copyright = await at('copyright', day(-1), [second], { filedBy: 'aaaaaaaaaaaaaaaa' });
      // Each sender's first urgent one by age, then the rest of the spammer's; their copyright request is a
      // first in its own (lesser) urgency.
      expect(ids(await openList().expect(200))).toEqual([spam[0], older, genuine, ...spam.slice(1), copyright]);
    });

    it('pages the list: page and limit, the total, and the count of each reason', async () => {
      const made: number[] = [];
      for (let i = 0; i < 7; i += 1) made.push(await at(i < 3 ? 'underage' : 'copyright', day(i)));
      const page1 = await listPage('state=open&page=1&limit=3').expect(200);
      expect(page1.body).toEqual(
        expect.objectContaining({ page: 1, limit: 3, total: 7, counts: { underage: 3, 'no-consent': 0, illegal: 0, copyright: 4, other: 0 } }),
      );
      expect(ids(page1)).toEqual(made.slice(0, 3));
      expect(ids(await listPage('page=3&limit=3').expect(200))).toEqual(made.slice(6));
      const beyond = await listPage('page=9&limit=3').expect(200);
      expect(beyond.body).toEqual(expect.objectContaining({ data: [], page: 9, total: 7 }));
    });

    it('lists one reason when asked, in the same order, still counting every reason', async () => {
      const a = await at('copyright', day(2), [first], { reporters: 3 });
      await at('underage', day(0));
      const b = await at('copyright', day(1));
      const res = await listPage('reason=copyright').expect(200);
      expect(ids(res)).toEqual([a, b]);
      expect(res.body).toEqual(expect.objectContaining({ total: 2, counts: expect.objectContaining({ copyright: 2, underage: 1 }) }));
      const closed = await listPage('state=closed&reason=copyright').expect(200);
      expect(closed.body).toEqual(expect.objectContaining({ data: [], total: 0 }));
    });

    it('answers at most 50 requests a page, 20 unless asked, whatever their size', async () => {
      const videos = await Promise.all(Array.from({ length: 20 }, () => insertVideo(t.db)));
      for (let i = 0; i < 55; i += 1) await at('underage', day(i), videos, { details: 'x'.repeat(4000) });
      const page = await listPage('limit=50').expect(200);
      expect(page.body.data).toHaveLength(50);
      expect(page.body.total).toBe(55);
      // 50 requests with 4,000 characters each and 20 videos: about 0.3 MB, and no more however many are open.
      expect(page.text.length).toBeLessThan(400_000);
      expect((await openList().expect(200)).body.data).toHaveLength(20);
    });

    it('shows a deleted video with a null title and status, and keeps the request', async () => {
      const doomed = await insertVideo(t.db, { title: 'Doomed' });
      const id = await at('no-consent', '2026-01-01T00:00:00Z', [doomed]);
      await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: doomed }).expect(200);
      const res = await openList().expect(200);
      expect(res.body.data).toEqual([expect.objectContaining({ id, videos: [{ id: doomed, title: null, status: null }] })]);
    });

    it('closes a request as resolved or dismissed, once, and lists closed ones most recent first, a page at a time', async () => {
      const a = await at('underage', '2026-01-01T00:00:00Z');
      const b = await at('copyright', '2026-01-02T00:00:00Z');
      const resolved = await close(a, { state: 'resolved' }).expect(200);
      expect(resolved.body.data).toEqual(expect.objectContaining({ id: a, state: 'resolved', closed_at: expect.any(String), reports: 1 }));
      const [row] = await t.db.query('SELECT closed_by FROM removal_requests WHERE id = $1', [a]);
      expect(row.closed_by).toBe(admin.id);
      await close(b, { state: 'dismissed' }).expect(200);

      const again = await close(a, { state: 'dismissed' }).expect(409);
      expect(again.body).toEqual({ error: 'This removal request is already closed', statusCode: 409 });
      const open = await openList().expect(200);
      expect(open.body).toEqual({ data: [], page: 1, limit: 20, total: 0, counts: { underage: 0, 'no-consent': 0, illegal: 0, copyright: 0, other: 0 } });
      const closed = await listPage('state=closed').expect(200);
      expect(closed.body.data.map((r: { id: number; state: string }) => [r.id, r.state])).toEqual([
        [b, 'dismissed'],
        [a, 'resolved'],
      ]);
      expect(closed.body).toEqual(expect.objectContaining({ total: 2, counts: expect.objectContaining({ underage: 1, copyright: 1 }) }));
      expect(ids(await listPage('state=closed&page=2&limit=1').expect(200))).toEqual([a]);
    });

    it('answers 404 for an unknown request and 400 for a bad id, state or extra field, changing nothing', async () => {
      const id = await at('other', '2026-01-01T00:00:00Z');
      expect((await close(id + 1000, { state: 'resolved' }).expect(404)).body).toEqual({ error: 'Removal request not found', statusCode: 404 });
      await close('abc', { state: 'resolved' }).expect(400);
      await close(0, { state: 'resolved' }).expect(400);
      expect((await close(id, { state: 'open' }).expect(400)).body.error).toBe('state must be resolved or dismissed');
      await close(id, {}).expect(400);
      await close(id, { state: 'resolved', note: 'hi' }).expect(400);
      await close(id, { state: 7 }).expect(400);
      const [row] = await t.db.query('SELECT state, closed_at FROM removal_requests WHERE id = $1', [id]);
      expect(row).toEqual({ state: 'open', closed_at: null });
    });

    it.each([
      ['state=all', 'state must be open or closed'],
      ['reason=boredom', 'reason must be one of: underage, no-consent, illegal, copyright, other'],
      ['page=0', 'page must be a whole number from 1 to 10000'],
      ['page=10001', 'page must be a whole number from 1 to 10000'],
      ['page=two', 'page must be a whole number from 1 to 10000'],
      ['page=1.5', 'page must be a whole number from 1 to 10000'],
      ['page=1&page=2', 'page must be a whole number from 1 to 10000'],
      ['limit=0', 'limit must be a whole number from 1 to 50'],
      ['limit=51', 'limit must be a whole number from 1 to 50'],
      ['limit=1e400', 'limit must be a whole number from 1 to 50'],
      ['limit=', 'limit must be a whole number from 1 to 50'],
      ['sort=oldest', 'property sort should not exist'],
    ])('answers 400 for the list with %s', async (query, message) => {
      const res = await listPage(query).expect(400);
      expect(res.body).toEqual({ error: message, statusCode: 400 });
    });
  });

  describe('a flood', () => {
    beforeEach(() => t.db.query('DELETE FROM removal_requests'));

    // The finding: one address sent 200 "underage" requests naming 20 videos each, with 4,000 characters
    // of details, and a genuine complaint filed after them waited behind them all.
    it('keeps a genuine request filed after 1,000 spam ones on the first page', async () => {
      const spamVideos = await Promise.all(Array.from({ length: 20 }, () => insertVideo(t.db)));
      const spam = (urls: number[]) => ({ ...valid(), reason: 'underage', details: 'x'.repeat(4000), contact: 'spam@example.com', urls: urls.map(String) });

      // 100 from one address, each naming other videos: the budget takes 3.
      const flooder = freshAddress();
      const fromOne = await inBatches(
        Array.from({ length: 100 }, (_, i) => () => file(spam([spamVideos[i % 20]]), { from: flooder })),
        20,
      );
      expect(fromOne.filter((r) => r.status === 201)).toHaveLength(3);
      expect(fromOne.filter((r) => r.status === 429)).toHaveLength(97);

      // 900 from 300 addresses, 3 each (all their budget), naming the same 20 videos in any order: one request.
      const senders = Array.from({ length: 300 }, () => freshAddress());
      const fromMany = await inBatches(
        Array.from({ length: 900 }, (_, i) => () => file(spam(i % 2 ? [...spamVideos].reverse() : spamVideos), { from: senders[i % 300] })),
        25,
      );
      expect(fromMany.map((r) => r.status)).toEqual(Array(900).fill(201));
      expect(new Set(fromMany.map((r) => r.body.id)).size).toBe(1);
      expect(await count()).toBe(4);

      const genuine = await file({ ...valid(), urls: [`/video/${second}`] }).expect(201);
      const page = await openList().expect(200);
      expect(page.body.total).toBe(5);
      // The merged spam (300 senders) leads; the one address's first request is as old as any sender's first; its
      // second and third wait behind the genuine one.
      const flooderRows = fromOne.filter((r) => r.status === 201).map((r) => r.body.id as number);
      const order = ids(page);
      expect(order[0]).toBe(fromMany[0].body.id);
      expect(order[2]).toBe(genuine.body.id);
      expect([order[1], order[3], order[4]].sort()).toEqual([...flooderRows].sort());
      expect(page.body.data[0]).toEqual(expect.objectContaining({ reports: 900, reporters: 300 }));
      expect(page.body.counts).toEqual({ underage: 4, 'no-consent': 1, illegal: 0, copyright: 0, other: 0 });
      expect(page.text.length).toBeLessThan(60_000);
    }, 240_000);

    it('keeps a genuine request on the first page after a day of one address spending its budget every hour', async () => {
      // 72 requests in 24 hours, each within the budget, naming other videos each time.
      const flooder = 'dddddddddddddddd';
      const videos = await Promise.all(Array.from({ length: 72 }, () => insertVideo(t.db)));
      for (const [i, video] of videos.entries()) {
        await t.db.query(
          `INSERT INTO removal_requests (video_ids, reason, details, contact, filed_by, reporter_keys, created_at, last_reported_at)
           VALUES ($1::int[], 'underage', $2, 'spam@example.com', $3, ARRAY[$3::varchar], now() - make_interval(mins => $4), now() - make_interval(mins => $4))`,
          [[video], 'x'.repeat(4000), flooder, (72 - i) * 20],
        );
      }
      const genuine = await file({ ...valid(), urls: [`/video/${second}`] }).expect(201);
      const page = await openList().expect(200);
      expect(page.body.total).toBe(73);
      expect(ids(page).indexOf(genuine.body.id)).toBe(1);
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

  describe.each(setups)('the budget, seen by two API processes %s', (_name, envFor, shared) => {
    let a: TestApp;
    let b: TestApp;
    let videoA: number;
    let videoB: number;
    const prefix = `removals-${randomUUID().slice(0, 8)}:`;
    beforeAll(async () => {
      // No proxy trusted: the client is the connection's address, whatever X-Forwarded-For says.
      [a, b] = await Promise.all([createTestApp(envFor(prefix)), createTestApp(envFor(prefix))]);
      [videoA, videoB] = await Promise.all([insertVideo(a.db), insertVideo(b.db)]);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });

    it(`ignores a forged X-Forwarded-For, and ${shared ? 'shares' : 'keeps'} the budget across processes`, async () => {
      for (let i = 0; i < 3; i += 1) {
        await request(a.http).post('/api/removal-requests').set('X-Forwarded-For', `203.0.113.${i}`).send({ ...valid(), urls: [`/video/${videoA}`] }).expect(201);
      }
      await request(a.http).post('/api/removal-requests').set('X-Forwarded-For', '203.0.113.99').send({ ...valid(), urls: [`/video/${videoA}`] }).expect(429);
      await request(b.http).post('/api/removal-requests').send({ ...valid(), urls: [`/video/${videoB}`] }).expect(shared ? 429 : 201);
      if (shared) {
        const redis = new Redis(process.env.TEST_REDIS_URL!);
        try {
          const keys = await redis.keys(`${prefix}ratelimit:removal-requests:*`);
          // One budget, under the sender's keyed hash: no address in Redis.
          expect(keys).toEqual([expect.stringMatching(/:removal-requests:anonymous:[0-9a-f]{16}$/)]);
        } finally {
          await redis.quit();
        }
      }
    });
  });
});
