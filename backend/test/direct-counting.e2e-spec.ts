import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { StrictValidationPipe } from '../src/common/pipes/strict-validation.pipe';
import { CountersService } from '../src/videos/counters/counters.service';
import { insertVideo, guestFrom } from './helpers/factories';
import { bearer, createTestApp, registerUser, TestApp } from './helpers/test-app';

/**
 * Guests' counting calls with a body the validation takes as it is go straight to the counters' controller,
 * behind the same rate limit and through the same exceptions filter: they must answer exactly as the full
 * pipeline does (a query string sends the same call through it), and everything else must reach the full
 * pipeline.
 */
describe("guests' counting calls without Nest's routing (e2e)", () => {
  let t: TestApp;
  let videoId: number;
  /** Bodies the global validation pipe has seen. */
  let validations = 0;
  const agent = () => `direct-${randomUUID()}`;
  const FULL = '?via=full';
  const headersOf = (res: request.Response) => {
    const { date: _date, 'x-request-id': _id, etag: _etag, 'content-length': _length, ...rest } = res.headers;
    return rest;
  };

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_WRITE: '0' });
    videoId = await insertVideo(t.db, { title: 'Directly Counted', views: 100, likes: 10 });
    const transform = StrictValidationPipe.prototype.transform;
    StrictValidationPipe.prototype.transform = function (this: StrictValidationPipe, ...args: Parameters<typeof transform>) {
      if (args[1].type === 'body') validations++;
      return transform.apply(this, args);
    };
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, ua = agent()) => request(t.http).post(path).set(guestFrom(ua)).send(body as object);

  it('answers a guest view, trending signal and like as the full pipeline does, without its validation pass', async () => {
    for (const [path, status] of [['/api/video/increment-views', 200], ['/api/video/add-trending', 204], ['/api/video/increment-likes', 200]] as const) {
      const before = validations;
      const direct = await post(path, { videoId }).expect(status);
      expect({ path, validations: validations - before }).toEqual({ path, validations: 0 });
      const full = await post(path + FULL, { videoId }).expect(status);
      expect(validations - before).toBe(1);
      expect(headersOf(direct)).toEqual(headersOf(full));
      expect(direct.headers['cache-control']).toBe('private, no-store');
      expect(direct.headers['x-request-id']).toBeTruthy();
      if (status === 204) expect([direct.text, full.text]).toEqual(['', '']);
      else expect(Object.keys(direct.body)).toEqual(Object.keys(full.body));
    }
  });

  it('counts exactly, with the dedupe shared by both ways in', async () => {
    const views = async () => (await request(t.http).get(`/api/videos/${videoId}`).expect(200)).body.views as number;
    const start = await views();
    const ua = agent();
    expect((await post('/api/video/increment-views', { videoId }, ua).expect(200)).body).toEqual({ views: start + 1 });
    expect((await post('/api/video/increment-views' + FULL, { videoId }, ua).expect(200)).body).toEqual({ views: start + 1 });
    expect((await post('/api/video/increment-views', { videoId }, ua).expect(200)).body).toEqual({ views: start + 1 });
    await Promise.all(Array.from({ length: 40 }, () => post('/api/video/increment-views', { videoId }).expect(200)));
    expect(await views()).toBe(start + 41);
    await t.app.get(CountersService).flush();
    expect(await views()).toBe(start + 41);

    const ua2 = agent();
    await post('/api/video/increment-likes', { videoId }, ua2).expect(200);
    const again = await post('/api/video/increment-likes', { videoId }, ua2).expect(409);
    expect(again.body).toEqual({ error: 'You already like this video', errorCode: 'ALREADY_LIKED', statusCode: 409 });
  });

  it('answers an unknown video 404 in the contract shape, as the full pipeline does', async () => {
    const direct = await post('/api/video/increment-views', { videoId: 999_999 }).expect(404);
    const full = await post('/api/video/increment-views' + FULL, { videoId: 999_999 }).expect(404);
    expect(direct.body).toEqual({ error: 'Video not found', statusCode: 404 });
    expect(direct.body).toEqual(full.body);
  });

  it.each([
    ['a string id', { videoId: String(1) }],
    ['a zero id', { videoId: 0 }],
    ['a fraction', { videoId: 1.5 }],
    ['an id past 32 bits', { videoId: 2 ** 31 }],
    ['an extra field', { videoId: 1, extra: true }],
    ['no id', {}],
    ['an array', [{ videoId: 1 }]],
  ])('leaves %s to the full pipeline, which refuses it 400 and counts nothing', async (_name, body) => {
    const before = validations;
    const res = await post('/api/video/increment-views', body).expect(400);
    expect(validations).toBe(before + 1);
    expect(res.body).toEqual({ error: expect.any(String), statusCode: 400 });
  });

  it("leaves a member's view to the full pipeline: counted by account", async () => {
    const member = await registerUser(t.http);
    const before = validations;
    const first = await request(t.http).post('/api/video/increment-views').set(bearer(member)).set(guestFrom(agent())).send({ videoId }).expect(200);
    expect(validations).toBe(before + 1);
    // Another device of the same member is the same viewer.
    const second = await request(t.http).post('/api/video/increment-views').set(bearer(member)).set(guestFrom(agent())).send({ videoId }).expect(200);
    expect(second.body).toEqual(first.body);
  });

  it("leaves a view with the session cookie (the browser's way of signing in) to the full pipeline too", async () => {
    const member = await registerUser(t.http);
    for (const cookie of [`access_token=${member.token}`, `theme=dark; access_token=${member.token}`, `theme=dark;access_token=${member.token}`]) {
      const before = validations;
      const ua = agent();
      const first = await request(t.http).post('/api/video/increment-views').set('Cookie', cookie).set(guestFrom(ua)).send({ videoId }).expect(200);
      expect(validations).toBe(before + 1);
      // Counted as the member: another device (user agent) of theirs is not a new viewer.
      const again = await request(t.http).post('/api/video/increment-views').set('Cookie', cookie).set(guestFrom(agent())).send({ videoId }).expect(200);
      expect(again.body).toEqual(first.body);
    }
    // A cookie of another name is a guest's, counted the direct way.
    const before = validations;
    await request(t.http).post('/api/video/increment-views').set('Cookie', 'not_access_token=x; theme=dark').set(guestFrom(agent())).send({ videoId }).expect(200);
    expect(validations).toBe(before);
  });
});

describe("guests' counting calls without Nest's routing: the write rate limit (e2e)", () => {
  let t: TestApp;
  let videoId: number;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_WRITE: '4' });
    videoId = await insertVideo(t.db, { title: 'Limited' });
  });
  afterAll(() => t.close());

  it('counts both ways in against one budget per address, then answers 429 with Retry-After', async () => {
    // One address, so one budget (and one viewer: a repeat still answers 200 or 204).
    const send = (path: string) => request(t.http).post(path).send({ videoId });
    await send('/api/video/increment-views').expect(200);
    await send('/api/video/add-trending?via=full').expect(204);
    await send('/api/video/add-trending').expect(204);
    await send('/api/video/increment-views?via=full').expect(200);
    for (const path of ['/api/video/increment-views', '/api/video/increment-views?via=full']) {
      const refused = await send(path).expect(429);
      expect(refused.body).toEqual({ error: 'Too many requests, please try again later', statusCode: 429 });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
