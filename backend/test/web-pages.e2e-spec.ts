import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'parse5';
import request from 'supertest';
import { StorageService } from '../src/media/storage.service';
import { insertVideo, type VideoFields } from './helpers/factories';
import { renderedWeb, type RenderedWeb } from './helpers/web-render';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

/**
 * The web client's pages from the server (docs/web-client.md › "One author per page", "The bootstrap
 * block", "Delivery"): each public page's head parsed with an HTML parser (parse5) as a browser or a crawler
 * reads it, escaping with a hostile title, the bootstrap block for guests and members, and the files of the
 * build sent precompressed and cached by kind.
 */
const ORIGIN = 'https://hunks.example';
const SITE = 'Hunk Tube';
const RTA = 'RTA-5042-1996-1400-1577-RTA';
const HOSTILE = '</script><script>alert(1)</script> "quotes" & <b>';
const BUNDLE = `console.log(${JSON.stringify('a bundle '.repeat(400))});\n`;

/** The build's shell as Vite writes it (frontend/index.html). */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="rating" content="${RTA}" />
    <title>Videos</title>
    <script type="module" crossorigin src="/assets/index-AbCd12_-.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
  value?: string;
}

/** What a page's head says, read from the parsed document. */
interface Head {
  titles: string[];
  meta: Map<string, string[]>;
  canonical: string[];
  preloads: { as?: string; href?: string; fetchpriority?: string }[];
  jsonLd: Record<string, unknown>[];
  bootstrap: Record<string, unknown>[];
  scripts: { type: string | undefined; text: string }[];
  serverMarked: number;
}

function elements(node: Node, out: Node[] = []): Node[] {
  if (node.tagName) out.push(node);
  for (const child of node.childNodes ?? []) elements(child, out);
  return out;
}
const attr = (node: Node, name: string) => node.attrs?.find((a) => a.name === name)?.value;
const text = (node: Node) => (node.childNodes ?? []).map((c) => c.value ?? '').join('');

function readHead(html: string): Head {
  const all = elements(parse(html) as unknown as Node);
  const head = all.find((n) => n.tagName === 'head') as Node;
  const inHead = elements(head);
  const meta = new Map<string, string[]>();
  for (const m of inHead.filter((n) => n.tagName === 'meta')) {
    const key = attr(m, 'name') ?? attr(m, 'property');
    if (key) meta.set(key, [...(meta.get(key) ?? []), attr(m, 'content') ?? '']);
  }
  const scripts = all.filter((n) => n.tagName === 'script').map((s) => ({ type: attr(s, 'type'), text: text(s) }));
  return {
    titles: all.filter((n) => n.tagName === 'title').map(text),
    meta,
    canonical: inHead.filter((n) => n.tagName === 'link' && attr(n, 'rel') === 'canonical').map((n) => attr(n, 'href') ?? ''),
    preloads: inHead
      .filter((n) => n.tagName === 'link' && attr(n, 'rel') === 'preload')
      .map((n) => ({ as: attr(n, 'as'), href: attr(n, 'href'), fetchpriority: attr(n, 'fetchpriority') })),
    jsonLd: scripts.filter((s) => s.type === 'application/ld+json').map((s) => JSON.parse(s.text)),
    bootstrap: all
      .filter((n) => n.tagName === 'script' && attr(n, 'id') === 'bootstrap')
      .map((s) => {
        expect(attr(s, 'type')).toBe('application/json');
        return JSON.parse(text(s));
      }),
    scripts,
    serverMarked: inHead.filter((n) => n.attrs?.some((a) => a.name === 'data-server-head')).length,
  };
}
const one = (head: Head, key: string) => {
  expect({ key, values: head.meta.get(key) }).toEqual({ key, values: [expect.any(String)] });
  return (head.meta.get(key) as string[])[0];
};

describe('Pages from the server (e2e)', () => {
  let t: TestApp;
  let web: RenderedWeb;
  let admin: TestUser;
  let port: number;

  const fixture = async (fields: Partial<VideoFields> = {}) => {
    const id = await insertVideo(t.db, fields);
    t.videosChanged([id]);
    return id;
  };
  const page = async (url: string, headers: Record<string, string> = {}) => {
    const res = await request(t.http).get(url).set(headers).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    return { res, head: readHead(res.text) };
  };
  /** The bytes as sent, undecoded (supertest would inflate them). */
  const raw = (url: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: url, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    // As the build's precompression writes them (frontend/vite.config.ts).
    web = renderedWeb(INDEX_HTML, {
      'assets/index-AbCd12_-.js': BUNDLE,
      'assets/index-AbCd12_-.js.br': brotliCompressSync(BUNDLE),
      'assets/index-AbCd12_-.js.gz': gzipSync(BUNDLE),
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    const { webRoot } = web;
    t = await createTestApp({ PUBLIC_URL: ORIGIN, SITE_NAME: SITE, IMAGE_HOST: 'https://img.example' }, { webRoot });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    admin = await registerAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    web.remove();
  });

  describe('the watch page', () => {
    it('has its title, description, canonical URL, Open Graph, Twitter card, RTA label and VideoObject', async () => {
      const id = await fixture({
        title: 'Pool Party', duration: 725, views: 4321, upload_date: new Date('2025-03-04T05:06:07Z'),
        categories: ['Outdoor'], performers: ['Alex Stone'], thumbnail: '/thumbs/pool/poster.jpg',
      });
      const { res, head } = await page(`/video/${id}?context=watch-later&t=30`);

      expect(head.titles).toEqual([`Pool Party - ${SITE}`]);
      expect(one(head, 'description')).toBe('Pool Party With Alex Stone. Categories: Outdoor.');
      expect(head.canonical).toEqual([`${ORIGIN}/video/${id}`]);
      // The player's poster, the page's largest image, is fetched before the app asks for it: the WebP copy the
      // player shows (link previews keep the original, below).
      // Then the start of its stream, as hls.js will ask for it (here the master alone: the store has no playlists).
      expect(head.preloads).toEqual([
        { as: 'image', href: 'https://img.example/thumbs/pool/poster.jpg.1280w.webp', fetchpriority: 'high' },
        { as: 'fetch', href: expect.stringMatching(/^\/s\/[^/]+\/videos\/.+\/index\.m3u8$/), fetchpriority: undefined },
      ]);
      expect(head.meta.get('rating')).toEqual([RTA]);
      expect(head.meta.get('robots')).toBeUndefined();
      expect(one(head, 'og:type')).toBe('video.other');
      expect(one(head, 'og:title')).toBe('Pool Party');
      expect(one(head, 'og:description')).toBe('Pool Party With Alex Stone. Categories: Outdoor.');
      expect(one(head, 'og:url')).toBe(`${ORIGIN}/video/${id}`);
      expect(one(head, 'og:image')).toBe('https://img.example/thumbs/pool/poster.jpg');
      expect(one(head, 'og:video')).toBe(`${ORIGIN}/embed/${id}`);
      expect(one(head, 'og:site_name')).toBe(SITE);
      expect(one(head, 'twitter:card')).toBe('summary_large_image');
      expect(one(head, 'twitter:title')).toBe('Pool Party');
      expect(one(head, 'twitter:image')).toBe('https://img.example/thumbs/pool/poster.jpg');

      expect(head.jsonLd).toEqual([{
        '@context': 'https://schema.org',
        '@type': 'VideoObject',
        name: 'Pool Party',
        description: 'Pool Party With Alex Stone. Categories: Outdoor.',
        thumbnailUrl: ['https://img.example/thumbs/pool/poster.jpg'],
        uploadDate: '2025-03-04T05:06:07.000Z',
        duration: 'PT12M5S',
        url: `${ORIGIN}/video/${id}`,
        embedUrl: `${ORIGIN}/embed/${id}`,
        interactionStatistic: { '@type': 'InteractionCounter', interactionType: { '@type': 'WatchAction' }, userInteractionCount: 4321 },
        isFamilyFriendly: false,
      }]);
      // Every element the server added is marked, so that the client can tell them from its own.
      // (the title, the canonical and preload links, the JSON-LD and the description, Open Graph, video and Twitter metas)
      expect(head.serverMarked).toBe(2 + head.preloads.length + head.jsonLd.length + [...head.meta.keys()].filter((k) => /^(og|twitter|video):|^description$/.test(k)).length);
      // The framing rule and the rest of the security headers hold for pages.
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    });

    it('keeps a hostile title inert: it reads back exactly, and no script but the page\'s own is in the document', async () => {
      const id = await fixture({ title: HOSTILE, categories: [HOSTILE.slice(0, 90)] });
      const { res, head } = await page(`/video/${id}`);

      expect(head.titles).toEqual([`${HOSTILE} - ${SITE}`]);
      expect(one(head, 'og:title')).toBe(HOSTILE);
      expect(one(head, 'twitter:title')).toBe(HOSTILE);
      expect(one(head, 'description').startsWith(`${HOSTILE} Categories: `)).toBe(true);
      expect(head.jsonLd).toHaveLength(1);
      expect(head.jsonLd[0].name).toBe(HOSTILE);
      expect(head.jsonLd[0].description).toBe(one(head, 'description'));
      expect(head.scripts.map((s) => s.type)).toEqual(['application/ld+json', 'application/json', 'module']);
      expect(res.text).not.toContain('<script>alert(1)');
      expect(res.text.split('</script>').length - 1).toBe(3);
    });

    it('shows an edit at once: the next page has the new title', async () => {
      const id = await fixture({ title: 'Before Edit' });
      expect((await page(`/video/${id}`)).head.titles).toEqual([`Before Edit - ${SITE}`]);
      await request(t.http).post('/api/admin/update-video').set(bearer(admin)).send({ id, title: 'After Edit' }).expect(200);
      const { head } = await page(`/video/${id}`);
      expect(head.titles).toEqual([`After Edit - ${SITE}`]);
      expect(head.jsonLd[0].name).toBe('After Edit');
    });

    it('answers an unknown, unpublished or malformed video with the shell, "Video not found" and noindex', async () => {
      const hidden = await fixture({ title: 'Still Processing', status: 'processing' });
      for (const url of ['/video/999999', `/video/${hidden}`, '/embed/999999']) {
        const { head } = await page(url);
        expect({ url, titles: head.titles, robots: head.meta.get('robots') }).toEqual({ url, titles: ['Video not found'], robots: ['noindex'] });
        expect(head.jsonLd).toEqual([]);
        expect(head.meta.get('og:title')).toBeUndefined();
      }
      expect((await page('/video/abc')).head.titles).toEqual(['Page not found']);
      expect((await page('/embed/abc')).head.titles).toEqual(['Video not found']);
    });

    it('gives the embed page its title and the watch page as canonical, and lets other sites frame it', async () => {
      const id = await fixture({ title: 'Framed' });
      const { res, head } = await page(`/embed/${id}`);
      expect(head.titles).toEqual([`Framed - ${SITE}`]);
      expect(head.canonical).toEqual([`${ORIGIN}/video/${id}`]);
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
    });
  });

  describe('share previews', () => {
    /** The four properties Open Graph requires, the picture's text and size, and the Twitter card's twins. */
    const preview = (head: Head) => ({
      title: one(head, 'og:title'),
      type: one(head, 'og:type'),
      url: one(head, 'og:url'),
      image: one(head, 'og:image'),
      alt: one(head, 'og:image:alt'),
      width: head.meta.get('og:image:width')?.[0],
      height: head.meta.get('og:image:height')?.[0],
      card: one(head, 'twitter:card'),
      twitterImage: one(head, 'twitter:image'),
      twitterAlt: one(head, 'twitter:image:alt'),
    });
    const SITE_PICTURE = { image: `${ORIGIN}/og-image.jpg`, alt: `The ${SITE} logo`, width: '1200', height: '630' };
    let id: number;

    beforeAll(async () => {
      // A poster in the store (the site's own 1200 × 630 picture will do), on the newest video: every listing's first card.
      const folder = path.join(t.app.get(StorageService).thumbsRoot, 'share-preview');
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'poster.jpg'), readFileSync(path.resolve(__dirname, '../../frontend/public/og-image.jpg')));
      id = await fixture({
        title: 'Preview Party', thumbnail: '/thumbs/share-preview/poster.jpg', upload_date: new Date('2099-01-01T00:00:00Z'),
        categories: ['Preview Cat'], performers: ['Preview Star'],
      });
    });

    it("give listings their first card's picture, with its title and its size read from the store", async () => {
      for (const url of ['/', '/categories/preview-cat', '/performers/preview-star']) {
        const { head } = await page(url);
        expect({ page: url, ...preview(head) }).toMatchObject({
          page: url,
          image: 'https://img.example/thumbs/share-preview/poster.jpg',
          alt: 'Preview Party',
          width: '1200',
          height: '630',
          card: 'summary_large_image',
          twitterImage: 'https://img.example/thumbs/share-preview/poster.jpg',
          twitterAlt: 'Preview Party',
        });
      }
      // Another sort's first card is another video: the picture follows the page (none of the fixtures has a stored picture).
      const { head } = await page('/?sort=longest');
      expect(one(head, 'og:image')).not.toBe('https://img.example/thumbs/share-preview/poster.jpg');
      expect(head.meta.get('og:image:width')).toBeUndefined();

      // And the catalogue: a newer video leads the next page served, and its removal gives the place back.
      const newer = await fixture({ title: 'Newer Still', thumbnail: '/thumbs/share-preview/newer.jpg', upload_date: new Date('2099-01-02T00:00:00Z') });
      expect(one((await page('/')).head, 'og:image')).toBe('https://img.example/thumbs/share-preview/newer.jpg');
      await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: newer }).expect(200);
      expect(one((await page('/')).head, 'og:image')).toBe('https://img.example/thumbs/share-preview/poster.jpg');
    });

    it('give the watch and embed pages the poster, named as such', async () => {
      for (const url of [`/video/${id}`, `/embed/${id}`]) {
        const { head } = await page(url);
        expect({ page: url, ...preview(head) }).toMatchObject({
          page: url,
          url: `${ORIGIN}/video/${id}`,
          type: 'video.other',
          image: 'https://img.example/thumbs/share-preview/poster.jpg',
          alt: 'The poster of Preview Party',
          width: '1200',
          height: '630',
        });
      }
    });

    it("give every other page Open Graph and a Twitter card with the site's own picture", async () => {
      const user = await registerUser(t.http);
      const pages: [string, string, Record<string, string>?][] = [
        ['/categories', 'Categories'],
        ['/performers', 'Performers'],
        ['/search?q=pool&x=1', 'pool – search'],
        ['/search', 'Search'],
        ['/terms', 'Terms of service'],
        ['/2257', '18 U.S.C. 2257 statement'],
        ['/content-removal', 'Content removal'],
        ['/login', 'Log in'],
        ['/register', 'Sign up'],
        ['/me/bookmarks', SITE, bearer(user)],
        ['/admin', SITE, bearer(admin)],
      ];
      for (const [url, title, headers] of pages) {
        const { head } = await page(url, headers);
        expect({ page: url, ...preview(head) }).toEqual({
          page: url,
          url: `${ORIGIN}${url.replace('&x=1', '')}`,
          title,
          type: 'website',
          ...SITE_PICTURE,
          card: 'summary_large_image',
          twitterImage: SITE_PICTURE.image,
          twitterAlt: SITE_PICTURE.alt,
        });
      }
    });
  });

  describe('listings', () => {
    it('gives category and performer pages their title and a BreadcrumbList', async () => {
      await fixture({ title: 'Bear Hug', categories: ['Bears & Cubs'], performers: ['Rex Hart'] });
      const category = (await page('/categories/bears-cubs?sort=most-viewed&page=2&x=1')).head;
      expect(category.titles).toEqual(['Bears & Cubs videos']);
      expect(category.canonical).toEqual([`${ORIGIN}/categories/bears-cubs?sort=most-viewed&page=2`]);
      expect(one(category, 'description')).toContain('Bears & Cubs');
      expect(one(category, 'og:type')).toBe('website');
      expect(category.jsonLd).toEqual([{
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: [
          { '@type': 'ListItem', position: 1, name: SITE, item: `${ORIGIN}/` },
          { '@type': 'ListItem', position: 2, name: 'Categories', item: `${ORIGIN}/categories` },
          { '@type': 'ListItem', position: 3, name: 'Bears & Cubs', item: `${ORIGIN}/categories/bears-cubs` },
        ],
      }]);

      const performer = (await page('/performers/rex-hart/')).head;
      expect(performer.titles).toEqual(['Rex Hart videos']);
      expect(performer.canonical).toEqual([`${ORIGIN}/performers/rex-hart`]);
      expect((performer.jsonLd[0].itemListElement as { name: string }[]).map((i) => i.name)).toEqual([SITE, 'Performers', 'Rex Hart']);

      expect((await page('/categories/no-such-thing')).head.titles).toEqual(['Page not found']);
    });

    it('gives the home page and the indexes their titles as the client sets them', async () => {
      const home = (await page('/?sort=trending')).head;
      expect(home.titles).toEqual([SITE]);
      expect(home.canonical).toEqual([`${ORIGIN}/?sort=trending`]);
      expect(one(home, 'description')).toMatch(/^Trending videos on Hunk Tube/);
      expect(one(home, 'og:url')).toBe(`${ORIGIN}/?sort=trending`);
      expect((await page('/categories')).head.titles).toEqual(['Categories']);
      expect((await page('/performers')).head.titles).toEqual(['Performers']);
    });

    it('keeps noindex where the client sets it: search, sign-in, member and admin pages', async () => {
      expect((await page('/search?q=%3Cb%3E%20pool')).head).toMatchObject({ titles: ['<b> pool – search'], canonical: [] });
      for (const url of ['/search?q=pool', '/search', '/login', '/register', '/me/bookmarks', '/playlists', '/playlists/3', '/admin', '/admin/videos/1']) {
        const { head } = await page(url);
        expect({ url, robots: head.meta.get('robots') }).toEqual({ url, robots: ['noindex'] });
      }
      for (const url of ['/', '/categories', '/terms']) {
        expect({ url, robots: (await page(url)).head.meta.get('robots') }).toEqual({ url, robots: undefined });
      }
    });
  });

  describe('the bootstrap block', () => {
    it('says "no one" to a guest, in a page any cache may keep and must revalidate', async () => {
      const { res, head } = await page('/');
      const site = (await request(t.http).get('/api/site').expect(200)).body;
      // With the reads the page was drawn from, for the browser to hydrate it.
      expect(head.bootstrap).toEqual([{ site, user: null, ageConfirmed: false, rendered: expect.objectContaining({ queries: expect.any(Object) }) }]);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.etag).toBeDefined();
      await request(t.http).get('/').set('If-None-Match', res.headers.etag).expect(304);
    });

    it("carries the member's user as GET /api/auth/me answers it, in a page no cache may keep", async () => {
      const member: TestUser = await registerUser(t.http, { displayName: '</script> Sam' });
      const cookie = { Cookie: `access_token=${member.token}` };
      const me = await request(t.http).get('/api/auth/me').set(cookie).expect(200);
      for (const url of ['/', '/video/1', '/me/bookmarks']) {
        const { res, head } = await page(url, cookie);
        const { rendered, ...block } = head.bootstrap[0];
        expect(block).toEqual({ site: expect.objectContaining({ name: SITE }), user: me.body.user, ageConfirmed: false });
        // The member's own pages are drawn by the browser.
        expect({ url, drawn: rendered !== undefined }).toEqual({ url, drawn: url !== '/me/bookmarks' });
        expect(res.headers['cache-control']).toBe('private, no-store');
      }
    });

    it('says "no one" for a token that is not valid, as GET /api/auth/me would with a 401', async () => {
      const member = await registerUser(t.http);
      await request(t.http).post('/api/auth/logout').set(bearer(member)).expect(204);
      for (const cookie of [`access_token=${member.token}`, 'access_token=not.a.token']) {
        const { res, head } = await page('/', { Cookie: cookie });
        expect(head.bootstrap).toEqual([{ site: expect.objectContaining({ name: SITE }), user: null, ageConfirmed: false, rendered: expect.any(Object) }]);
        expect(res.headers['cache-control']).toBe('no-cache');
      }
    });

    it("says whether the visitor has answered the 18+ gate, from the gate's cookie (and nothing else)", async () => {
      for (const [cookie, answered] of [['age_confirmed=true', true], ['age_confirmed=yes', false], ['other=true', false]] as const) {
        const { head } = await page('/', { Cookie: cookie });
        expect({ cookie, answered: (head.bootstrap[0] as { ageConfirmed: boolean }).ageConfirmed }).toEqual({ cookie, answered });
      }
    });
  });

  describe('delivery', () => {
    const bundleUrl = '/assets/index-AbCd12_-.js';

    it('sends a hashed bundle precompressed, brotli first, as immutable', async () => {
      const br = await raw(bundleUrl, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toMatch(/Accept-Encoding/);
      expect(brotliDecompressSync(br.body).toString()).toBe(BUNDLE);

      const gz = await raw(bundleUrl, { 'Accept-Encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(BUNDLE);

      for (const headers of [{}, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
        const plain = await raw(bundleUrl, headers);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.body.toString()).toBe(BUNDLE);
        expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      }
      expect(readFileSync(path.join(web.webRoot, 'assets', 'index-AbCd12_-.js'), 'utf8')).toBe(BUNDLE);
    });

    it('answers a bundle the build does not have with a 404, never the shell', async () => {
      const res = await request(t.http).get('/assets/gone-AbCd1234.js').expect(404);
      expect(res.text).not.toContain('<div id="root">');
    });

    it('keeps other files of the build revalidated, and compresses pages and API JSON on the fly', async () => {
      const icon = await raw('/favicon.svg');
      expect(icon.status).toBe(200);
      expect(icon.headers['cache-control']).toBe('no-cache');

      const html = await raw('/', { 'Accept-Encoding': 'br' });
      expect(html.headers['content-encoding']).toBe('br');
      expect(html.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(html.body).toString()).toContain('<div id="root">');

      for (let i = 0; i < 10; i++) await fixture({ title: `Filler ${i}` });
      const json = await raw('/api/videos?limit=20', { 'Accept-Encoding': 'gzip' });
      expect(json.headers['content-encoding']).toBe('gzip');
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.headers.vary).toMatch(/Accept-Encoding/);
      const plain = await raw('/api/videos?limit=20');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(gunzipSync(json.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    });
  });
});
