import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { READS_REFUSED } from '../src/common/http/read-budget';
import { signedPath } from '../src/media/signing';
import { PagesService } from '../src/web/pages.service';
import { RENDER_CONCURRENCY, RENDER_QUEUE_MAX, SEARCH_RENDER_BURST } from '../src/web/render-pool';
import { insertVideo } from './helpers/factories';
import { standInWeb, type StandInWeb } from './helpers/stand-in-web';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers/test-app';

/**
 * Issue #29, point 3: the rendered-page cache was keyed on the address as sent, so `/?x=N`, `?t=N` or a new `q=`
 * each forced a render (17-35 ms of CPU), and nothing limited reads. Now a page is drawn for, and kept under, its
 * canonical address; new searches share a budget; renders run in a bounded line that answers 503 when full; and
 * each network has a budget of reads. The render module is a stand-in that counts what it draws
 * (helpers/stand-in-web.ts); how long the API takes to answer during such a flood is measured by `npm run bench`
 * (docs/security.md › "Measured"), not here.
 */
const rendered = (html: string) => /data-rendered="([^"]*)"/.exec(html)?.[1]?.replaceAll('&#38;', '&') ?? null;

describe('renders no one can force (e2e)', () => {
  let t: TestApp;
  let web: StandInWeb;
  let media: string;
  const ids: number[] = [];

  beforeAll(async () => {
    web = standInWeb();
    media = mkdtempSync(path.join(tmpdir(), 'renders-media-'));
    mkdirSync(path.join(media, 'videos', 'flood'), { recursive: true });
    writeFileSync(path.join(media, 'videos', 'flood', 'seg-0.ts'), Buffer.alloc(188 * 100, 0x47));
    t = await createTestApp({ MEDIA_DIR: media, TRUST_PROXY: 'loopback' }, { webRoot: web.webRoot });
    for (let n = 0; n < RENDER_CONCURRENCY + RENDER_QUEUE_MAX + 6; n++) ids.push(await insertVideo(t.db, { title: `Render ${n}` }));
    t.videosChanged(ids);
  });
  afterAll(async () => {
    await t?.close();
    web?.remove();
    rmSync(media, { recursive: true, force: true });
  });

  const page = (url: string, from = '198.51.100.1') => request(t.http).get(url).set('X-Forwarded-For', from);
  const rendersOf = (url: string) => web.renders().filter((u) => u === url).length;

  it('draws a page once for every address that differs only in what no component reads', async () => {
    for (let n = 0; n < 30; n++) {
      const res = await page(`/?x=${n}&utm_source=${n}&sort=bogus&page=1`).expect(200);
      expect(rendered(res.text)).toBe('/');
    }
    for (let n = 0; n < 30; n++) {
      const res = await page(`/video/${ids[0]}?t=${n * 7}&x=${n}`).expect(200);
      expect(rendered(res.text)).toBe(`/video/${ids[0]}`);
    }
    expect(rendersOf('/')).toBe(1);
    expect(rendersOf(`/video/${ids[0]}`)).toBe(1);
    // `?t=` is not part of the page: the same HTML, to the byte.
    expect((await page(`/video/${ids[0]}?t=35`).expect(200)).text).toBe((await page(`/video/${ids[0]}`).expect(200)).text);
    // What a page does read makes a page of its own, spelled one way.
    expect(rendered((await page('/?page=02&sort=longest&x=1').expect(200)).text)).toBe('/?sort=longest&page=2');
    expect(rendered((await page('/?sort=longest&page=2').expect(200)).text)).toBe('/?sort=longest&page=2');
    expect(rendersOf('/?sort=longest&page=2')).toBe(1);
  });

  it("keeps a guest's page whole, whether it is drawn or its head alone, and writes a member's each time", async () => {
    const written = (url: string) => web.documents().filter((u) => u === url).length;
    for (let n = 0; n < 10; n++) {
      await page(`/login?ref=x${n}`).expect(200);
      await page(`/embed/${ids[0]}?t=${n}`).expect(200);
    }
    expect({ login: written('/login'), embed: written(`/embed/${ids[0]}`) }).toEqual({ login: 1, embed: 1 });
    // An edit of the catalogue: the next page is written again.
    t.videosChanged([ids[0]]);
    await page(`/embed/${ids[0]}`).expect(200);
    expect(written(`/embed/${ids[0]}`)).toBe(2);
    // A member's page shows their data: never kept.
    const member = await registerUser(t.http);
    for (let n = 0; n < 3; n++) await page('/login').set(bearer(member)).expect(200);
    expect(written('/login')).toBe(4);
  });

  it('draws new searches while their shared budget lasts, and lets the browser draw the rest', async () => {
    const before = web.renders().length;
    const answers = [];
    for (let n = 0; n < 60; n++) answers.push(await page(`/search?q=word${n}`).expect(200));
    const drawn = answers.filter((res) => rendered(res.text) !== null).length;
    expect(drawn).toBeGreaterThanOrEqual(SEARCH_RENDER_BURST);
    // The budget refills at 5 a second: 60 searches in a few seconds cannot all be drawn.
    expect(drawn).toBeLessThan(60);
    expect(web.renders().length - before).toBe(drawn);
    // Each undrawn page is its document without a body (the head alone), which the browser draws.
    const shell = answers.find((res) => rendered(res.text) === null);
    expect(shell?.text).toContain('<div id="root"></div>');
    expect(shell?.text).toMatch(/<title>Head of \/search\?q=word\d+<\/title>/);
    // A search drawn before is kept, and costs no budget.
    const kept = answers.findIndex((res) => rendered(res.text) !== null);
    const again = await page(`/search?q=word${kept}`).expect(200);
    expect(rendered(again.text)).toBe(`/search?q=word${kept}`);
  });

  it('answers 503 with Retry-After and the shell once the line of renders is full, and draws again after', async () => {
    web.hold();
    let fill: Promise<request.Response>[];
    let overflow: request.Response[];
    try {
      // (not ids[0], whose page the first test drew and is kept)
      fill = ids.slice(1, 1 + RENDER_CONCURRENCY + RENDER_QUEUE_MAX).map((id) => page(`/video/${id}?fill=1`).then((res) => res));
      // Every page of the first lot is drawn or waits its turn before the next ones are sent.
      await vi.waitFor(() => expect(t.app.get(PagesService).renderLoad).toEqual({ running: RENDER_CONCURRENCY, waiting: RENDER_QUEUE_MAX }), { timeout: 10_000 });
      overflow = await Promise.all(ids.slice(1 + RENDER_CONCURRENCY + RENDER_QUEUE_MAX).map((id) => page(`/video/${id}`)));
    } finally {
      web.release();
    }
    const filled = await Promise.all(fill);
    expect(filled.map((res) => res.status).filter((s) => s === 200)).toHaveLength(RENDER_CONCURRENCY + RENDER_QUEUE_MAX);
    for (const res of overflow) {
      expect(res.status).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.text).toContain('<div id="root"></div>');
      expect(rendered(res.text)).toBeNull();
    }
    // The line is free again: the same page is drawn.
    expect(rendered((await page(`/video/${ids.at(-1)}`).expect(200)).text)).toBe(`/video/${ids.at(-1)}`);
  });

  it('keeps answering health checks and media through a flood of 500 addresses made to bust the cache', async () => {
    const before = web.renders().length;
    const busting = Array.from({ length: 500 }, (_, n) =>
      [`/?x=${n}`, `/video/${ids[n % 4]}?t=${n}`, `/categories?cb=${n}`, `/?sort=most-viewed&r=${n}`, `/search?q=flood${n}`][n % 5]);
    const segment = signedPath('/videos/flood/', 'seg-0.ts', Math.floor(Date.now() / 1000) + 3600, t.config.mediaSigningKey);
    const side: number[] = [];
    let flooding = true;
    const probes = (async () => {
      while (flooding) {
        side.push((await request(t.http).get('/api/health')).status, (await request(t.http).get(segment)).status);
      }
    })();
    for (let i = 0; i < busting.length; i += 10) {
      const answers = await Promise.all(busting.slice(i, i + 10).map((url, k) => page(url, `203.0.113.${(i + k) % 250}`)));
      for (const res of answers) expect([200, 503]).toContain(res.status);
    }
    flooding = false;
    await probes;
    expect(side.length).toBeGreaterThan(0);
    expect(side.every((status) => status === 200)).toBe(true);
    // Renders: a page for each canonical address (/ and most-viewed were drawn before), none for the ?t= and
    // ?cb= variants, and the searches the budget allowed.
    expect(web.renders().length - before).toBeLessThanOrEqual(1 + SEARCH_RENDER_BURST + 20);
  });
});

describe('the read budget per network (e2e)', () => {
  let t: TestApp;
  let web: StandInWeb;

  beforeAll(async () => {
    web = standInWeb();
    t = await createTestApp({ RATE_LIMIT_READ: '20', TRUST_PROXY: 'loopback' }, { webRoot: web.webRoot });
  });
  afterAll(async () => {
    await t?.close();
    web?.remove();
  });

  const from = (address: string) => ({ 'X-Forwarded-For': address });

  it('answers 429 with Retry-After past RATE_LIMIT_READ reads a minute, to that network only', async () => {
    for (let n = 0; n < 10; n++) {
      await request(t.http).get('/api/videos').set(from('198.51.100.7')).expect(200);
      await request(t.http).get('/').set(from('198.51.100.7')).expect(200);
    }
    const api = await request(t.http).get('/api/videos').set(from('198.51.100.7')).expect(429);
    expect(api.body).toEqual({ error: READS_REFUSED, statusCode: 429 });
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(api.headers['retry-after'])).toBeLessThanOrEqual(60);
    const html = await request(t.http).get('/categories').set(from('198.51.100.7')).expect(429);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.text).toContain(READS_REFUSED);
    // Another network has its own budget; an IPv6 client is counted by its /64.
    await request(t.http).get('/api/videos').set(from('198.51.100.8')).expect(200);
    for (let n = 0; n < 20; n++) await request(t.http).get('/api/site').set(from(`2001:db8:7:7::${n + 1}`)).expect(200);
    await request(t.http).get('/api/site').set(from('2001:db8:7:7:ffff::1')).expect(429);
  });

  it('never counts health checks, media, the built files or writes', async () => {
    const address = '198.51.100.9';
    for (let n = 0; n < 40; n++) {
      await request(t.http).get('/api/health').set(from(address)).expect(200);
      await request(t.http).get('/thumbs/none/poster.jpg').set(from(address)).expect(404);
      await request(t.http).get('/s/abc,1/videos/x/index.m3u8').set(from(address)).expect((res) => expect([403, 404, 410]).toContain(res.status));
      await request(t.http).post('/api/video/add-trending').set(from(address)).send({ videoId: 999_999 }).expect(404);
    }
    await request(t.http).get('/api/videos').set(from(address)).expect(200);
  });
});
