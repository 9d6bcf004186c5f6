import { createHmac } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Express } from 'express';
import request from 'supertest';
import { CROSS_SITE_REFUSED, JSON_LONE_SURROGATE, JSON_ONLY, JSON_TOO_DEEP } from '../src/common/http/request-guards';
import { bearer, createTestApp, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

/**
 * What a hostile client or another site can send: broken Unicode, deep nesting, form bodies, cross-site writes
 * with the victim's cookie, tokens that never expire. Each is refused with a 4xx in the contract's shape and
 * changes nothing.
 */
describe('request hardening (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  const adminCookie = () => `access_token=${admin.token}`;
  const categoryCount = async () => Number((await t.db.query('SELECT count(*)::int AS n FROM categories'))[0].n);

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
  });
  afterAll(() => t.close());

  describe('JSON bodies', () => {
    it('answers 400 to a lone UTF-16 surrogate in a string, creating nothing', async () => {
      const users = Number((await t.db.query('SELECT count(*)::int AS n FROM users'))[0].n);
      const res = await request(t.http)
        .post('/api/auth/register')
        .set('Content-Type', 'application/json')
        .send('{"email":"\\ud800@example.com","password":"correct horse battery","displayName":"Sam"}')
        .expect(400);
      expect(res.body).toEqual({ error: JSON_LONE_SURROGATE, statusCode: 400 });
      expect(Number((await t.db.query('SELECT count(*)::int AS n FROM users'))[0].n)).toBe(users);
    });

    it('answers 400 to a lone surrogate in a key, and to a low surrogate alone', async () => {
      for (const body of ['{"\\udc00":1}', '{"name":"a\\udfffb"}']) {
        const res = await request(t.http).post('/api/categories').set(bearer(admin)).set('Content-Type', 'application/json').send(body).expect(400);
        expect(res.body.error).toBe(JSON_LONE_SURROGATE);
      }
    });

    it('still takes a surrogate pair (an emoji) and characters outside the BMP', async () => {
      const res = await request(t.http).post('/api/categories').set(bearer(admin)).set('Content-Type', 'application/json').send('{"name":"Beach \\ud83c\\udf34"}').expect(201);
      expect(res.body.name).toBe('Beach 🌴');
    });

    it('answers 400 to a deeply nested body before parsing it, and the server keeps answering', async () => {
      const deep = `{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      const res = await request(t.http).post('/api/categories').set(bearer(admin)).set('Content-Type', 'application/json').send(deep).expect(400);
      expect(res.body).toEqual({ error: JSON_TOO_DEEP, statusCode: 400 });
      await request(t.http).get('/api/site').expect(200);
    });

    it('counts brackets inside strings as text, not nesting', async () => {
      const res = await request(t.http)
        .post('/api/categories')
        .set(bearer(admin))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: `Brackets ${'[{'.repeat(40)} \\" ${'}]'.repeat(40)}`.slice(0, 100) }))
        .expect(201);
      expect(res.body.name).toMatch(/^Brackets \[\{/);
    });

    it('answers a nested body within the limit with the validation message, not a 500', async () => {
      const res = await request(t.http)
        .post('/api/categories')
        .set(bearer(admin))
        .send({ name: { a: { b: { c: { d: [[[[1]]]] } } } } })
        .expect(400);
      expect(res.body.statusCode).toBe(400);
    });
  });

  describe('only JSON is parsed, except files on the upload routes', () => {
    it.each([
      ['application/x-www-form-urlencoded', 'name=from-a-form'],
      ['text/plain', '{"name":"from-a-text-form"}'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nmultipart\r\n--x--\r\n'],
    ])('refuses a %s body with 415, creating nothing', async (type, body) => {
      const before = await categoryCount();
      const res = await request(t.http).post('/api/categories').set(bearer(admin)).set('Content-Type', type).send(body).expect(415);
      expect(res.body).toEqual({ error: JSON_ONLY, statusCode: 415 });
      expect(await categoryCount()).toBe(before);
    });

    it('still takes a write with no body at all', async () => {
      await request(t.http).post('/api/admin/clear-cache').set(bearer(admin)).expect(200);
    });
  });

  describe('cross-site writes', () => {
    it('refuses a cookie-authenticated write from another origin (form CSRF), changing nothing', async () => {
      const before = await categoryCount();
      const res = await request(t.http)
        .post('/api/categories')
        .set('Cookie', adminCookie())
        .set('Origin', 'http://evil.example')
        .send({ name: 'Planted' })
        .expect(403);
      expect(res.body).toEqual({ error: CROSS_SITE_REFUSED, statusCode: 403 });
      expect(await categoryCount()).toBe(before);
    });

    it.each(['cross-site', 'same-site'])('refuses a write whose Sec-Fetch-Site is %s, whatever the Origin says', async (site) => {
      const host = 'hunktube.test';
      await request(t.http)
        .post('/api/admin/clear-cache')
        .set('Host', host)
        .set('Cookie', adminCookie())
        .set('Origin', `http://${host}`)
        .set('Sec-Fetch-Site', site)
        .expect(403);
    });

    it('refuses logout and login from another site (login CSRF sets no cookie)', async () => {
      const member = await registerUser(t.http, { email: 'csrf-login@example.com' });
      await request(t.http).post('/api/auth/logout').set('Cookie', `access_token=${member.token}`).set('Sec-Fetch-Site', 'cross-site').expect(403);
      const login = await request(t.http)
        .post('/api/auth/login')
        .set('Origin', 'https://evil.example')
        .send({ email: 'csrf-login@example.com', password: 'correct horse battery' })
        .expect(403);
      expect(login.headers['set-cookie']).toBeUndefined();
    });

    it("takes writes from the site's own pages: same-origin, a typed address, or an Origin on the request's host", async () => {
      const host = 'hunktube.test:8080';
      for (const headers of [
        { 'Sec-Fetch-Site': 'same-origin', Origin: `http://${host}` },
        { 'Sec-Fetch-Site': 'none' },
        { Origin: `https://${host}` },
        {},
      ]) {
        await request(t.http).post('/api/admin/clear-cache').set('Host', host).set('Cookie', adminCookie()).set(headers).expect(200);
      }
    });

    it('refuses the opaque "null" origin of sandboxed frames and data: pages', async () => {
      await request(t.http).post('/api/admin/clear-cache').set('Cookie', adminCookie()).set('Origin', 'null').expect(403);
    });

    it('leaves reads alone', async () => {
      await request(t.http).get('/api/site').set('Origin', 'http://evil.example').set('Sec-Fetch-Site', 'cross-site').expect(200);
    });
  });

  describe('cross-origin headers', () => {
    it('sends no CORS or cross-origin resource policy on API answers and pages', async () => {
      for (const path of ['/api/site', '/api/auth/me', '/api/videos']) {
        const res = await request(t.http).get(path);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.headers['cross-origin-resource-policy']).not.toBe('cross-origin');
      }
    });

    it('keeps them on media paths, which another host may embed', async () => {
      const res = await request(t.http).get('/thumbs/none/poster.jpg').expect(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    });
  });

  describe('tokens', () => {
    const sign = (payload: Record<string, unknown>) => {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`;
      return `${unsigned}.${createHmac('sha256', t.config.jwtSecret).update(unsigned).digest('base64url')}`;
    };

    it('refuses a correctly signed token that never expires', async () => {
      const now = Math.floor(Date.now() / 1000);
      // The admin's own session, so that only the expiry differs.
      const { sid } = JSON.parse(Buffer.from(admin.token.split('.')[1], 'base64url').toString()) as { sid: string };
      await request(t.http).get('/api/auth/me').set('Authorization', `Bearer ${sign({ sub: admin.id, sid, iat: now })}`).expect(401);
      // The same token with an expiry is good: the signature, subject and session were never the problem.
      await request(t.http).get('/api/auth/me').set('Authorization', `Bearer ${sign({ sub: admin.id, sid, iat: now, exp: now + 60 })}`).expect(200);
    });

    it('refuses a correctly signed, unexpired token that names no session, or a session that is not its own', async () => {
      const now = Math.floor(Date.now() / 1000);
      const { sid } = JSON.parse(Buffer.from(admin.token.split('.')[1], 'base64url').toString()) as { sid: string };
      const member = await registerUser(t.http);
      for (const payload of [
        { sub: admin.id, iat: now, exp: now + 60 },
        { sub: admin.id, sid: 'not-a-uuid', iat: now, exp: now + 60 },
        { sub: admin.id, sid: '00000000-0000-4000-8000-000000000000', iat: now, exp: now + 60 },
        { sub: member.id, sid, iat: now, exp: now + 60 },
      ]) {
        const res = await request(t.http).get('/api/auth/me').set('Authorization', `Bearer ${sign(payload)}`).expect(401);
        expect(res.body).toEqual({ error: expect.any(String), statusCode: 401 });
      }
    });
  });

  describe('uploads', () => {
    it("stores the source under the sniffed container's extension, not the client's file name", async () => {
      const fakeMp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(600)]);
      const res = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'Named Playlist').attach('file', fakeMp4, 'clip.m3u8').expect(202);
      const [job] = await t.db.query('SELECT payload FROM ingest_jobs WHERE id = $1', [res.body.job_id]);
      expect(job.payload.source).toMatch(/\.mp4$/);
      expect(job.payload.source).not.toMatch(/m3u8/);
    });
  });

  describe("Express's prototypes", () => {
    it('are those Node builds requests and answers with, so Express swaps none (common/http/express-classes.ts)', async () => {
      const server = t.http as unknown as Server;
      const express = t.app.getHttpAdapter().getInstance() as Express;
      let arrived: [object, object] | undefined;
      const look = (req: IncomingMessage, res: ServerResponse) => (arrived = [Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object]);
      server.prependListener('request', look);
      try {
        await request(t.http).get('/api/site').expect(200);
      } finally {
        server.off('request', look);
      }
      expect(arrived?.[0]).toBe(express.request);
      expect(arrived?.[1]).toBe(express.response);
    });
  });
});
