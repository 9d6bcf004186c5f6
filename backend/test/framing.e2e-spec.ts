import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from './helpers/test-app';

/** The CSP's directives by name, so that two policies can be compared directive by directive. */
const directives = (csp: string | undefined) =>
  Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );

describe('Framing by other sites (e2e)', () => {
  let t: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(tmpdir(), 'web-'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>shell</title><div id="root"></div>');
    t = await createTestApp({}, { webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('lets any site frame the embeddable player: frame-ancestors *, no X-Frame-Options', async () => {
    for (const page of ['/embed/1', '/embed/2147483647', '/embed/12/', '/embed/7?t=30']) {
      const res = await request(t.http).get(page).expect(200);
      expect(res.text).toContain('<div id="root">');
      expect({ page, frameAncestors: directives(res.headers['content-security-policy'])['frame-ancestors'] }).toEqual({
        page,
        frameAncestors: '*',
      });
      expect({ page, xFrameOptions: res.headers['x-frame-options'] }).toEqual({ page, xFrameOptions: undefined });
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    }
  });

  it('keeps the rest of the policy of every other page on the embeddable player', async () => {
    const embed = await request(t.http).get('/embed/1').expect(200);
    const watch = await request(t.http).get('/video/1').expect(200);
    const { 'frame-ancestors': embedFraming, ...embedRest } = directives(embed.headers['content-security-policy']);
    const { 'frame-ancestors': watchFraming, ...watchRest } = directives(watch.headers['content-security-policy']);
    expect([embedFraming, watchFraming]).toEqual(['*', "'self'"]);
    expect(embedRest).toEqual(watchRest);
    expect(embedRest['default-src']).toBe("'self'");
    expect(embedRest['media-src']).toContain("'self'");
    for (const header of ['x-content-type-options', 'referrer-policy', 'cross-origin-opener-policy', 'cache-control']) {
      expect({ header, value: embed.headers[header] }).toEqual({ header, value: watch.headers[header] });
    }
  });

  it('refuses framing of every other page, the watch page and look-alikes of the embed path included', async () => {
    const pages = [
      '/',
      '/video/1',
      '/video/1?context=playlist&playlist=2',
      '/admin',
      '/login',
      '/index.html',
      '/embed',
      '/embed/',
      '/embed/abc',
      '/embed/1/extra',
      '/embed/1/../../admin',
      '/embed/1%2F..%2Fadmin',
      '/embedded/1',
      '/x/embed/1',
    ];
    for (const page of pages) {
      const res = await request(t.http).get(page);
      expect({ page, status: res.status }).toEqual({ page, status: 200 });
      expect({ page, frameAncestors: directives(res.headers['content-security-policy'])['frame-ancestors'] }).toEqual({
        page,
        frameAncestors: "'self'",
      });
      expect({ page, xFrameOptions: res.headers['x-frame-options'] }).toEqual({ page, xFrameOptions: 'SAMEORIGIN' });
      expect({ page, corp: res.headers['cross-origin-resource-policy'] }).toEqual({ page, corp: 'same-origin' });
    }
  });

  it('refuses framing of API answers, whatever their path says', async () => {
    for (const url of ['/api/site', '/api/videos/1', '/api/embed/1']) {
      const res = await request(t.http).get(url);
      expect({ url, xFrameOptions: res.headers['x-frame-options'] }).toEqual({ url, xFrameOptions: 'SAMEORIGIN' });
      expect(directives(res.headers['content-security-policy'])['frame-ancestors']).toBe("'self'");
    }
  });
});
