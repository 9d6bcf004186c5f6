import request from 'supertest';
import { SitemapsService } from '../src/seo/sitemaps.service';
import { PagesService } from '../src/web/pages.service';
import { insertVideo } from './helpers/factories';
import { standInWeb, type StandInWeb } from './helpers/stand-in-web';
import { createTestApp, type TestApp } from './helpers/test-app';

/**
 * Issue #29, points 2 and 5: the site's addresses come from configuration, never from the request. A Host with a
 * made-up port used to match a brand host and write its port into canonical URLs, Open Graph and every sitemap
 * `<loc>`, each port a new cache entry and a new sitemap build; with TRUST_PROXY and no PUBLIC_URL, a forged
 * X-Forwarded-Proto landed in the same places (`javascript:` in canonical and og:url). Now PUBLIC_URL and each
 * BRAND_HOSTS entry's origin are the only origins written and the only cache keys.
 */
const MAIN = 'https://hunks.example';
const ATG = 'https://atg.example';
const JTG = 'https://jtg.example:8443';

describe('origins from configuration only (e2e)', () => {
  let t: TestApp;
  let web: StandInWeb;
  let id: number;

  beforeAll(async () => {
    web = standInWeb();
    t = await createTestApp(
      { PUBLIC_URL: MAIN, BRAND_HOSTS: `atg.example=atg,${JTG}=jtg`, TRUST_PROXY: 'loopback', SITEMAP_URLS_PER_FILE: '100' },
      { webRoot: web.webRoot },
    );
    id = await insertVideo(t.db, { title: 'Pool party', thumbnail: '/thumbs/pool/poster.jpg', categories: ['Beach'] });
    t.videosChanged([id]);
  });
  afterAll(async () => {
    await t?.close();
    web?.remove();
  });

  const urls = () => ['/robots.txt', '/sitemap.xml', '/sitemaps/videos-1.xml', '/sitemaps/categories-1.xml', '/', `/video/${id}`, `/embed/${id}`, '/categories/beach', '/api/site'];
  const get = (url: string, headers: Record<string, string>) => request(t.http).get(url).set(headers);

  /** Every answer of every kind for the configured hosts: what each origin is written with. */
  async function answersFor(host: string): Promise<string> {
    const texts: string[] = [];
    for (const url of urls()) texts.push((await get(url, { Host: host }).expect(200)).text);
    return texts.join('\n');
  }

  it('writes each configured site with its own origin', async () => {
    expect(await answersFor('hunks.example')).toContain(`Sitemap: ${MAIN}/sitemap.xml`);
    const atg = await answersFor('atg.example');
    expect(atg).toContain(`<loc>${ATG}/video/${id}</loc>`);
    expect(atg).toContain(`rel="canonical" href="${ATG}/video/${id}">`);
    expect(atg).toContain(`data-origin="${ATG}"`);
    expect(atg).toContain(`"origin":"${ATG}"`);
    const jtg = await answersFor('jtg.example:8443');
    expect(jtg).toContain(`Sitemap: ${JTG}/sitemap.xml`);
    expect(jtg).toContain(`<loc>${JTG}/video/${id}</loc>`);
  });

  it('builds nothing new for 100 made-up ports and hosts, and writes none of them anywhere', async () => {
    for (const host of ['hunks.example', 'atg.example', 'jtg.example:8443']) await answersFor(host);
    const sitemaps = t.app.get(SitemapsService).keptFiles;
    const pages = t.app.get(PagesService).keptPages;
    const rendered = web.renders().length;
    expect(sitemaps).toBeGreaterThan(0);
    expect(pages).toBeGreaterThan(0);

    const made: string[] = [];
    for (let n = 0; n < 100; n++) {
      const port = 31_000 + n;
      // A brand's host on another port, an unknown host, and the main one through a "proxy" naming another host.
      const variants: [string, Record<string, string>][] = [
        [`atg.example:${port}`, { Host: `atg.example:${port}` }],
        [`evil-${n}.example`, { Host: `evil-${n}.example:${port}` }],
        [`forwarded-${n}.example`, { Host: 'hunks.example', 'X-Forwarded-Host': `forwarded-${n}.example:${port}`, 'X-Forwarded-Proto': 'http' }],
      ];
      const [variant, headers] = variants[n % 3];
      made.push(variant, String(port));
      for (const url of urls()) {
        const res = await get(url, headers).expect(200);
        expect(res.text).not.toContain(`:${port}`);
        expect(res.text).not.toMatch(/evil-\d+|forwarded-\d+/);
      }
    }
    expect(made).toHaveLength(200);
    expect(t.app.get(SitemapsService).keptFiles).toBe(sitemaps);
    expect(t.app.get(PagesService).keptPages).toBe(pages);
    // No page drawn for a made-up host: whatever was drawn again is one of the configured pages, drawn anew once
    // its kept copy's ten seconds were up (a slow machine takes longer than that over these 300 requests).
    const drawnBefore = new Set(web.renders().slice(0, rendered));
    expect(web.renders().slice(rendered).filter((url) => !drawnBefore.has(url))).toEqual([]);
  });

  it('serves an unknown host as the main site, on the main origin', async () => {
    const res = await get(`/video/${id}`, { Host: 'unknown.example' }).expect(200);
    expect(res.text).toContain(`rel="canonical" href="${MAIN}/video/${id}">`);
    expect((await get('/api/site', { Host: 'ATG.example:9999' }).expect(200)).body).toMatchObject({ brand: 'atg', origin: ATG });
    expect((await get('/api/site', { Host: 'unknown.example' }).expect(200)).body).toMatchObject({ brand: 'default', origin: MAIN });
  });
});

describe('X-Forwarded-Proto from a trusted proxy, without PUBLIC_URL (e2e)', () => {
  let t: TestApp;
  let web: StandInWeb;
  let id: number;

  beforeAll(async () => {
    web = standInWeb();
    t = await createTestApp({ TRUST_PROXY: 'loopback', PORT: '3210' }, { webRoot: web.webRoot });
    id = await insertVideo(t.db, { title: 'Locker room', thumbnail: '/thumbs/locker/poster.jpg' });
    t.videosChanged([id]);
  });
  afterAll(async () => {
    await t?.close();
    web?.remove();
  });

  it.each(['https://evil.example/#', 'javascript:alert(1)//', 'ftp', 'https, http'])(
    'never writes %j into canonical, Open Graph, JSON-LD, robots.txt or a sitemap',
    async (proto) => {
      for (const url of ['/robots.txt', '/sitemap.xml', '/sitemaps/videos-1.xml', `/video/${id}`, `/embed/${id}`, '/']) {
        const res = await request(t.http).get(url).set('X-Forwarded-Proto', proto).set('X-Forwarded-Host', 'evil.example').expect(200);
        expect(res.text).not.toContain('evil.example');
        expect(res.text).not.toContain('javascript:');
        expect(res.text).not.toContain('ftp://');
        expect(res.text).toMatch(/http:\/\/localhost:3210\//);
      }
    },
  );
});
