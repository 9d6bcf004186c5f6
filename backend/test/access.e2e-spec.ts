import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from './helpers/test-app';

/** The routes anyone may call; every other route of the OpenAPI document must answer 401 without a token. */
const PUBLIC_ROUTES = new Set([
  'GET /api/site',
  'GET /api/get-client-ip',
  'GET /api/health',
  // Beyond the contract: liveness and readiness (docs/operating.md › "Liveness, readiness and draining").
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /api/videos',
  'GET /api/videos/{id}',
  'GET /api/videos/{id}/related',
  'GET /api/categories',
  'GET /api/performers',
  'GET /api/tags',
  'GET /api/tags/{id}',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/video/increment-views',
  'POST /api/video/add-trending',
  'POST /api/video/increment-likes',
  'POST /api/video/update-duration',
  'GET /api/video/secure',
  // Beyond the contract: anyone may ask for a video to be taken down.
  'POST /api/removal-requests',
  // Beyond the contract: cards by id, for a guest's Continue watching (docs/decisions.md › "Continue watching").
  'GET /api/cards',
  // The ad slots a page asks for and the events it counts (api-contract.md › Ads).
  'GET /api/ads',
  'POST /api/ads/{id}/events',
  // Beyond the contract: the crawlers' files (docs/seo.md, "Sitemaps and robots.txt").
  'GET /robots.txt',
  'GET /sitemap.xml',
  'GET /sitemaps/{file}',
]);

describe('Access and the web client (e2e)', () => {
  let t: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(tmpdir(), 'web-'));
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>shell</title><div id="root"></div>');
    writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log("app")');
    t = await createTestApp({}, { webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('answers 401 in the error shape on every route that is not public, when no token is sent', async () => {
    const doc = (await request(t.http).get('/api/docs-json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([route, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${route}`));
    expect(routes.length).toBeGreaterThan(PUBLIC_ROUTES.size);
    for (const route of PUBLIC_ROUTES) expect(routes).toContain(route);
    const guarded = routes.filter((r) => !PUBLIC_ROUTES.has(r));
    expect(guarded).toEqual(expect.arrayContaining(['GET /api/auth/me', 'PATCH /api/auth/me']));
    for (const route of guarded) {
      const [method, template] = route.split(' ');
      const url = template.replace(/\{[^}]+\}/g, '1');
      const res = await request(t.http)[method.toLowerCase() as 'get'](url).send({});
      expect({ route, status: res.status, body: res.body }).toEqual({ route, status: 401, body: { error: expect.any(String), statusCode: 401 } });
    }
  });

  it('serves the web client at / and falls back to it for client-side routes', async () => {
    const home = await request(t.http).get('/').expect(200);
    expect(home.headers['content-type']).toMatch(/text\/html/);
    expect(home.text).toContain('<div id="root">');
    const deep = await request(t.http).get('/video/12?context=playlist').expect(200);
    expect(deep.text).toContain('<div id="root">');
    const asset = await request(t.http).get('/assets/app.js').expect(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
  });

  it('keeps unknown API routes as JSON 404s, not the web client', async () => {
    const res = await request(t.http).get('/api/unknown/route').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('sends security headers', async () => {
    const res = await request(t.http).get('/api/site').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
