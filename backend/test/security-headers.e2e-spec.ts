import request from 'supertest';
import { NUL_REFUSED } from '../src/common/http/request-guards';
import { PERMISSIONS_POLICY } from '../src/common/http/security-headers';
import { insertVideo } from './helpers/factories';
import { standInWeb, type StandInWeb } from './helpers/stand-in-web';
import { bearer, createTestApp, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

/**
 * Issue #29, point 6, the small findings: the frameable embed named the signed-in member in its bootstrap block; a
 * NUL byte reached PostgreSQL and its SQLSTATE came back; `__proto__` and `constructor` body keys were taken where
 * every other unknown key got 400; no Permissions-Policy; the CSP allowed any `https:` style sheet and inline
 * <style>; the session cookie had no `__Host-` prefix in production. (Request ids: request-log.spec.ts; the CSV
 * writer: the web client's dashboard test.)
 */
const directives = (csp: string | undefined): Record<string, string> =>
  Object.fromEntries((csp ?? '').split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...values] = d.split(/\s+/);
    return [name, values.join(' ')];
  }));

describe('the small findings of the third audit (e2e)', () => {
  let t: TestApp;
  let web: StandInWeb;
  let member: TestUser;
  let admin: TestUser;
  let id: number;

  beforeAll(async () => {
    web = standInWeb();
    t = await createTestApp({ INGEST_WORKER: 'false' }, { webRoot: web.webRoot });
    member = await registerUser(t.http, { displayName: 'Bootstrap Member' });
    admin = await registerAdmin(t);
    id = await insertVideo(t.db, { title: 'Framed' });
    t.videosChanged([id]);
  });
  afterAll(async () => {
    await t?.close();
    web?.remove();
  });

  const bootstrapOf = (html: string) => JSON.parse(/<script type="application\/json" id="bootstrap">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as { user?: unknown };

  it("names no member in the embeddable player's page, which other sites frame", async () => {
    for (const auth of [{ Cookie: `access_token=${member.token}` }, bearer(member)]) {
      const embed = await request(t.http).get(`/embed/${id}`).set(auth).expect(200);
      expect(bootstrapOf(embed.text).user).toBeNull();
      expect(embed.text).not.toContain(member.email);
      expect(embed.text).not.toContain(member.id);
      expect(embed.text).not.toContain('Bootstrap Member');
      // The watch page of this very site still knows who is signed in.
      const watch = await request(t.http).get(`/video/${id}`).set(auth).expect(200);
      expect(bootstrapOf(watch.text).user).toMatchObject({ id: member.id });
    }
  });

  describe('a NUL character', () => {
    it.each([
      ['a JSON body', () => request(t.http).post('/api/categories').set(bearer(admin)).send({ name: 'Nul\u0000Name' })],
      ['a JSON key', () => request(t.http).post('/api/categories').set(bearer(admin)).send({ ['na\u0000me']: 'x' })],
      ['a query', () => request(t.http).get('/api/videos?q=pool%00party')],
      ['a path', () => request(t.http).get('/api/categories/beach%00')],
      ['a page address', () => request(t.http).get('/search?q=%00')],
      ['a search', () => request(t.http).get('/api/videos').query({ q: 'a\u0000b' })],
      ['a login', () => request(t.http).post('/api/auth/login').send({ email: 'x@example.com', password: 'a\u0000b' })],
    ])('in %s answers 400 with a clear text, never the database\'s code', async (_where, send) => {
      const res = await send();
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: NUL_REFUSED, statusCode: 400 });
    });

    it('in a multipart field answers 400 and stores nothing', async () => {
      const videos = Number((await t.db.query('SELECT count(*)::int AS n FROM videos'))[0].n);
      const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(600)]);
      const res = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'Nul\u0000Title').attach('file', mp4, 'clip.mp4');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: NUL_REFUSED, statusCode: 400 });
      expect(Number((await t.db.query('SELECT count(*)::int AS n FROM videos'))[0].n)).toBe(videos);
    });
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses a %s key like any unknown field, at any depth', async (key) => {
    const before = Number((await t.db.query('SELECT count(*)::int AS n FROM categories'))[0].n);
    for (const body of [`{"name":"Proto One","${key}":{"isAdmin":true}}`, `{"name":"Proto Two","x":{"${key}":1}}`]) {
      const res = await request(t.http).post('/api/categories').set(bearer(admin)).set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(new RegExp(`property (${key}|x) should not exist`));
    }
    const query = await request(t.http).get(`/api/videos?${key}=1`);
    expect(query.status).toBe(400);
    expect(query.body.error).toBe(`property ${key} should not exist`);
    expect(Number((await t.db.query('SELECT count(*)::int AS n FROM categories'))[0].n)).toBe(before);
  });

  it('denies the browser features the site never uses, on every page and the embed', async () => {
    for (const url of ['/', `/video/${id}`, `/embed/${id}`, '/categories']) {
      const res = await request(t.http).get(url).expect(200);
      expect(res.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    }
    // A policy for documents: an API answer is none.
    expect((await request(t.http).get('/api/site').expect(200)).headers['permissions-policy']).toBeUndefined();
    expect(PERMISSIONS_POLICY).toMatch(/(^|, )camera=\(\)/);
    expect(PERMISSIONS_POLICY).toMatch(/(^|, )fullscreen=\(self\)/);
  });

  it('takes style sheets and fonts from this site only: no https: source, no inline <style>', async () => {
    for (const url of ['/', `/embed/${id}`]) {
      const csp = directives((await request(t.http).get(url).expect(200)).headers['content-security-policy']);
      expect(csp['style-src']).toBe("'self'");
      expect(csp['style-src-attr']).toBe("'unsafe-inline'");
      expect(csp['font-src']).toBe("'self' data:");
      expect(Object.values(csp).join(' ')).not.toMatch(/(^|\s)https:(\s|$)/);
    }
  });
});

describe('the session cookie of a production site (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(40), MEDIA_SIGNING_KEY: 'm'.repeat(24), PUBLIC_URL: 'https://hunks.example',
      INGEST_WORKER: 'false', DEMO_SEED: 'false',
    });
  });
  afterAll(() => t?.close());

  it('is __Host-access_token: Secure, for /, with no Domain, and the only one a production site reads', async () => {
    const res = await request(t.http).post('/api/auth/register').send({ email: 'host-cookie@example.com', password: 'violet harbour lantern 42', displayName: 'Cookie Jar' }).expect(201);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('__Host-access_token='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).not.toMatch(/Domain=/i);
    const token = res.body.accessToken as string;
    await request(t.http).get('/api/auth/me').set('Cookie', `__Host-access_token=${token}`).expect(200);
    // The unprefixed name is one a sibling subdomain could have planted: not read.
    await request(t.http).get('/api/auth/me').set('Cookie', `access_token=${token}`).expect(401);
    const out = await request(t.http).post('/api/auth/logout').set('Cookie', `__Host-access_token=${token}`).expect(204);
    expect((out.headers['set-cookie'] as unknown as string[]).some((c) => c.startsWith('__Host-access_token=;'))).toBe(true);
  });
});
