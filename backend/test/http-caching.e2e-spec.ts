import request from 'supertest';
import { CountersService } from '../src/videos/counters/counters.service';
import { insertVideo, guestFrom } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

/**
 * HTTP caching as the contract has it: public catalogue GETs carry a strong ETag, answer 304 to a matching
 * If-None-Match and a short public Cache-Control; anything that depends on who asks is `private, no-store`.
 */
describe('HTTP caching (e2e)', () => {
  let t: TestApp;
  let member: TestUser;
  let admin: TestUser;
  let videoId: number;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    member = await registerUser(t.http);
    admin = await registerAdmin(t);
    videoId = await insertVideo(t.db, { title: 'Cacheable Clip', categories: ['Gym'] });
  });
  afterAll(() => t.close());

  const PUBLIC = /^public, max-age=\d+, stale-while-revalidate=\d+$/;

  it.each([
    ['a listing', () => '/api/videos?sort=newest'],
    ['a video', () => `/api/videos/${videoId}`],
    ['related videos', () => `/api/videos/${videoId}/related`],
    ['the categories', () => '/api/categories'],
    ['the performers', () => '/api/performers'],
    ['the site settings', () => '/api/site'],
  ])('gives %s a strong ETag, a short public lifetime and 304 on revalidation', async (_name, url) => {
    const first = await request(t.http).get(url()).expect(200);
    expect(first.headers['cache-control']).toMatch(PUBLIC);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/); // strong: no W/ prefix
    const again = await request(t.http).get(url()).set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    // The same for a signed-in reader: the catalogue does not depend on who reads it.
    await request(t.http).get(url()).set(bearer(member)).set('If-None-Match', etag).expect(304);
  });

  it('changes the ETag when the video changes (a counted view), so a revalidation gets the new body', async () => {
    const first = await request(t.http).get(`/api/videos/${videoId}`).expect(200);
    await request(t.http).post('/api/video/increment-views').set(guestFrom('etag-viewer')).send({ videoId }).expect(200);
    const next = await request(t.http).get(`/api/videos/${videoId}`).set('If-None-Match', first.headers.etag).expect(200);
    expect(next.body.views).toBe(first.body.views + 1);
    expect(next.headers.etag).not.toBe(first.headers.etag);
    await t.app.get(CountersService).flush();
  });

  it.each([
    ['GET /api/auth/me', () => request(t.http).get('/api/auth/me').set(bearer(member))],
    ['GET /api/me/bookmarks', () => request(t.http).get('/api/me/bookmarks').set(bearer(member))],
    ['GET /api/playlists/get-user-playlists', () => request(t.http).get('/api/playlists/get-user-playlists').set(bearer(member))],
    ['GET /api/admin/jobs', () => request(t.http).get('/api/admin/jobs').set(bearer(admin))],
    ['GET /api/get-client-ip', () => request(t.http).get('/api/get-client-ip')],
    ['GET /api/video/secure', () => request(t.http).get('/api/video/secure').query({ path: '/videos/2024/06/none/index.m3u8' })],
    ['POST /api/auth/login', () => request(t.http).post('/api/auth/login').send({ email: member.email, password: 'correct horse battery' })],
    ['POST /api/video/increment-views', () => request(t.http).post('/api/video/increment-views').send({ videoId })],
    ['a 401', () => request(t.http).get('/api/me/bookmarks')],
    ['a 404', () => request(t.http).get('/api/videos/999999')],
  ])('keeps %s out of every cache: private, no-store', async (_name, send) => {
    const res = await send();
    expect(res.headers['cache-control']).toBe('private, no-store');
  });
});
