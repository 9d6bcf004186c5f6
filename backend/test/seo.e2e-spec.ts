import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { stemOf } from '../src/common/media-paths';
import { VideosRepository } from '../src/videos/videos.repository';
import { insertVideo, type VideoFields } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, TestApp, TestUser } from './helpers/test-app';
import { schemaErrors, SITEMAP_INDEX_SCHEMA, URLSET_SCHEMA } from './helpers/xml-schema';

/**
 * robots.txt and the sitemaps (docs/seo.md, "Sitemaps and robots.txt"): what crawlers are kept out of, a sitemap
 * index naming every file, one `<url>` with a `<video:video>` per published video in files of at most
 * SITEMAP_URLS_PER_FILE (3 here), taxon pages, well-formed XML whatever the titles hold, and files that follow
 * every publish, edit and delete. Fixtures are inserted behind the API's back and announced as a publication is.
 */
const PER_FILE = 3;
const ORIGIN = 'https://hunks.example';

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  trimValues: false,
  // Lists stay lists with one element.
  isArray: (name) => ['sitemap', 'url', 'video:tag'].includes(name),
});

interface VideoEntry {
  'video:thumbnail_loc': string;
  'video:title': string;
  'video:description': string;
  'video:player_loc': string;
  'video:duration'?: string;
  'video:view_count': string;
  'video:publication_date': string;
  'video:family_friendly': string;
  'video:tag'?: string[];
}
interface UrlEntry {
  loc: string;
  'video:video'?: VideoEntry;
}

/** Parses a well-formed document only (the validator names what is wrong otherwise). */
function parse(xml: string): Record<string, unknown> {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml) as Record<string, unknown>;
}

describe('robots.txt and sitemaps (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  /** A published video inserted as an upload's publication would be: announced to the caches. */
  const fixture = async (fields: Partial<VideoFields> = {}) => {
    const id = await insertVideo(t.db, { thumbnail: '/thumbs/fixture/poster.jpg', ...fields });
    t.videosChanged([id]);
    return id;
  };
  const get = async (url: string) => {
    const res = await request(t.http).get(url).expect(200);
    return res;
  };
  const index = async () => {
    const res = await get('/sitemap.xml');
    const doc = parse(res.text) as { sitemapindex: { sitemap?: { loc: string }[] } };
    return (doc.sitemapindex.sitemap ?? []).map((s) => s.loc);
  };
  const urlsOf = async (loc: string): Promise<UrlEntry[]> => {
    expect(loc.startsWith(`${ORIGIN}/`)).toBe(true);
    const res = await get(loc.slice(ORIGIN.length));
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const doc = parse(res.text) as { urlset: { url?: UrlEntry[] } };
    return doc.urlset.url ?? [];
  };
  /** Every video `<url>` of every video file the index lists, file by file. */
  const videoFiles = async () => {
    const files = (await index()).filter((loc) => loc.includes('/sitemaps/videos-'));
    return Promise.all(files.map(async (loc) => ({ loc, urls: await urlsOf(loc) })));
  };
  const videoUrls = async () => (await videoFiles()).flatMap((f) => f.urls);
  const entryOf = async (id: number) => (await videoUrls()).filter((u) => u.loc === `${ORIGIN}/video/${id}`);

  beforeAll(async () => {
    t = await createTestApp({ SITEMAP_URLS_PER_FILE: String(PER_FILE), PUBLIC_URL: `${ORIGIN}/`, IMAGE_HOST: 'https://img.example' });
    admin = await registerAdmin(t);
  });
  afterAll(() => t.close());

  describe('robots.txt', () => {
    it('keeps crawlers out of search, member, sign-in, admin and API routes, lets them into embeds and names the sitemap', async () => {
      const res = await get('/robots.txt');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+/);
      const lines = res.text.split('\n');
      expect(lines[0]).toBe('User-agent: *');
      for (const route of ['/api/', '/search', '/me/', '/login', '/register', '/admin', '/playlists']) {
        expect(lines).toContain(`Disallow: ${route}`);
      }
      expect(lines).toContain('Allow: /embed/');
      expect(lines.filter((l) => l.startsWith('Disallow:')).some((l) => '/embed/1'.startsWith(l.slice(10)))).toBe(false);
      expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    });
  });

  describe('video sitemaps', () => {
    it('list every published video exactly once, with every required video field, in files of at most the limit', async () => {
      const published: number[] = [];
      for (let i = 0; i < 7; i++) {
        published.push(await fixture({
          title: `Pool Day ${i}`, views: 10 + i, duration: 61 + i, upload_date: new Date(Date.UTC(2025, 0, 1 + i)),
          categories: ['Outdoor'], performers: ['Alex Stone'],
        }));
      }
      const hidden = [
        await fixture({ title: 'Still Processing', status: 'processing' }),
        await fixture({ title: 'Failed Ingest', status: 'failed' }),
      ];

      const files = await videoFiles();
      expect(files.length).toBeGreaterThanOrEqual(3);
      for (const file of files) {
        expect(file.urls.length).toBeGreaterThan(0);
        expect(file.urls.length).toBeLessThanOrEqual(PER_FILE);
      }
      const locs = files.flatMap((f) => f.urls.map((u) => u.loc));
      expect(new Set(locs).size).toBe(locs.length);
      for (const id of published) expect(locs.filter((l) => l === `${ORIGIN}/video/${id}`)).toHaveLength(1);
      for (const id of hidden) expect(locs).not.toContain(`${ORIGIN}/video/${id}`);

      const [entry] = await entryOf(published[2]);
      expect(entry['video:video']).toEqual({
        'video:thumbnail_loc': 'https://img.example/thumbs/fixture/poster.jpg',
        'video:title': 'Pool Day 2',
        'video:description': expect.stringContaining('Pool Day 2'),
        'video:player_loc': `${ORIGIN}/embed/${published[2]}`,
        'video:duration': '63',
        'video:view_count': '12',
        'video:publication_date': '2025-01-03T00:00:00.000Z',
        'video:family_friendly': 'no',
        'video:tag': ['Outdoor', 'Alex Stone'],
      });
    });

    it('serve each file gzipped to crawlers that take it, with a validator and a public lifetime', async () => {
      await fixture();
      const [loc] = (await index()).filter((l) => l.includes('/sitemaps/videos-'));
      const file = loc.slice(ORIGIN.length);
      const zipped = await request(t.http).get(file).set('Accept-Encoding', 'gzip').expect(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
      expect(zipped.headers['cache-control']).toMatch(/^public, max-age=\d+/);
      const plain = await request(t.http).get(file).set('Accept-Encoding', 'identity').expect(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.text).toBe(zipped.text);
      expect(plain.headers.etag).toBeTruthy();
      expect(plain.headers.etag).not.toBe(zipped.headers.etag);
      await request(t.http).get(file).set('Accept-Encoding', 'identity').set('If-None-Match', plain.headers.etag).expect(304);
    });

    it('read a file in one statement whatever it holds, and serve it again without the database until the catalogue changes', async () => {
      const statements: string[] = [];
      const create = t.db.createQueryRunner.bind(t.db);
      t.db.createQueryRunner = (mode) => {
        const runner = create(mode);
        const query = runner.query.bind(runner);
        runner.query = ((...args: Parameters<typeof query>) => {
          if (!/ingest_jobs|scheduled_tasks/.test(String(args[0]))) statements.push(String(args[0]));
          return query(...args);
        }) as typeof runner.query;
        return runner;
      };
      try {
        await fixture({ categories: ['Counted Cat'], performers: ['Counted Star'] });
        const files = (await index()).filter((l) => l.includes('/sitemaps/videos-'));
        for (const loc of files) {
          statements.length = 0;
          const urls = await urlsOf(loc);
          expect(urls.length).toBeGreaterThan(0);
          expect(statements).toHaveLength(1);
          expect(statements[0]).toMatch(/FROM videos v .*WHERE v\.id BETWEEN \$1 AND \$2/s);
        }
        statements.length = 0;
        for (const loc of files) await urlsOf(loc);
        await index();
        expect(statements).toEqual([]);
      } finally {
        t.db.createQueryRunner = create;
      }
    });

    it('answer 404 for a file that does not exist', async () => {
      await request(t.http).get('/sitemaps/videos-999999.xml').expect(404);
      await request(t.http).get('/sitemaps/videos-0.xml').expect(404);
      await request(t.http).get('/sitemaps/other-1.xml').expect(404);
      await request(t.http).get('/sitemaps/videos-1.xml.gz').expect(404);
    });

    it('keep every title, tag and image address well-formed XML, hostile characters and all', async () => {
      // (PostgreSQL itself refuses NUL; the serializer's unit tests cover it and lone surrogates.)
      const hostile = 'A & B <script>alert("x")</script> \'quoted\' ]]> <![CDATA[ x ]]> \u0001\u0008\u000B\u000C\u001F\uFFFE end';
      const id = await fixture({
        title: hostile,
        thumbnail: 'https://cdn.example/p.jpg?a=1&b=<2>',
        categories: ['Rock & <Roll>'],
        performers: ['"Quoted" Star'],
      });
      const [entry] = await entryOf(id);
      const video = entry['video:video'] as VideoEntry;
      // What XML 1.0 cannot carry is left out; everything else comes back as it was.
      expect(video['video:title']).toBe('A & B <script>alert("x")</script> \'quoted\' ]]> <![CDATA[ x ]]>  end');
      expect(video['video:description']).toContain('A & B <script>');
      // A URL is written as a valid URI (what may not stand in one percent-encoded), its & escaped.
      expect(video['video:thumbnail_loc']).toBe('https://cdn.example/p.jpg?a=1&b=%3C2%3E');
      expect(video['video:tag']).toEqual(['Rock & <Roll>', '"Quoted" Star']);
    });

    it('follow a publish, an admin edit and a delete at once', async () => {
      const repo = t.app.get(VideosRepository);
      const url = '/2025/05/fresh-upload.mp4';
      const id = await insertVideo(t.db, { title: 'Fresh Upload', url, status: 'processing', duration: null });
      expect(await entryOf(id)).toEqual([]);

      await repo.publish(id, stemOf(url), { durationSeconds: 95.7, width: 1280, height: 720 });
      const [published] = await entryOf(id);
      expect(published['video:video']).toMatchObject({
        'video:title': 'Fresh Upload',
        'video:duration': '95',
        'video:thumbnail_loc': `https://img.example/thumbs/${stemOf(url)}/poster.jpg`,
      });

      await request(t.http).post('/api/admin/update-video').set(bearer(admin))
        .send({ id, title: 'Renamed Upload', categories: [{ name: 'Edited Category' }] }).expect(400);
      await request(t.http).post('/api/categories').set(bearer(admin)).send({ name: 'Edited Category' }).expect(201);
      await request(t.http).post('/api/admin/update-video').set(bearer(admin))
        .send({ id, title: 'Renamed Upload', categories: [{ name: 'Edited Category' }] }).expect(200);
      const [edited] = await entryOf(id);
      expect(edited['video:video']).toMatchObject({ 'video:title': 'Renamed Upload', 'video:tag': ['Edited Category'] });

      await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id }).expect(200);
      expect(await entryOf(id)).toEqual([]);
    });

    it('drop a file from the index once its last video is gone', async () => {
      const before = await videoFiles();
      const last = before.at(-1) as { loc: string; urls: UrlEntry[] };
      const lastIds = last.urls.map((u) => Number(u.loc.split('/').pop()));
      // A new block of ids of its own: the next id after the last block.
      const [{ max }] = await t.db.query<{ max: number }[]>('SELECT max(id)::int AS max FROM videos');
      const blockStart = Math.ceil((Number(max) + 1) / PER_FILE) * PER_FILE + 1;
      await t.db.query(`SELECT setval(pg_get_serial_sequence('videos', 'id'), $1, false)`, [blockStart]);
      const lone = await fixture({ title: 'Alone In Its Block' });
      const withLone = await index();
      const loneFile = `${ORIGIN}/sitemaps/videos-${Math.ceil(lone / PER_FILE)}.xml`;
      expect(withLone).toContain(loneFile);
      expect(lastIds.length).toBeGreaterThan(0);

      await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: lone }).expect(200);
      expect(await index()).not.toContain(loneFile);
      await request(t.http).get(loneFile.slice(ORIGIN.length)).expect(404);
    });
  });

  describe('against the official schemas', () => {
    it("validate: robots.txt's sitemap index by sitemaps.org's, every file it lists by sitemaps.org's and Google's video schema", async () => {
      const tags = Array.from({ length: 40 }, (_, i) => `Tag ${i}`);
      await fixture({ title: `Tagged & <odd> "title" ${'x'.repeat(120)}`, duration: 28_801, categories: tags.slice(0, 20), performers: tags.slice(20) });
      await fixture({ title: 'No duration', duration: null, views: 0 });
      await fixture({ title: 'Untagged' });

      const robots = (await get('/robots.txt')).text;
      const indexLoc = /^Sitemap: (.+)$/m.exec(robots)?.[1] ?? '';
      expect(indexLoc).toBe(`${ORIGIN}/sitemap.xml`);
      const indexXml = (await get(indexLoc.slice(ORIGIN.length))).text;
      expect(schemaErrors(indexXml, SITEMAP_INDEX_SCHEMA)).toBe('');
      const files = await index();
      expect(files.filter((loc) => loc.includes('/sitemaps/videos-')).length).toBeGreaterThan(0);
      expect(files.filter((loc) => /\/sitemaps\/(categories|performers)-/.test(loc)).length).toBeGreaterThan(0);
      for (const loc of files) {
        const xml = (await get(loc.slice(ORIGIN.length))).text;
        expect({ loc, errors: schemaErrors(xml, URLSET_SCHEMA) }).toEqual({ loc, errors: '' });
      }
    });

    it('are the schemas that refuse what Google refuses (a family_friendly before the tags, a 33rd tag, a bad index)', () => {
      const entry = (inner: string) =>
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"><url><loc>${ORIGIN}/video/1</loc><video:video><video:thumbnail_loc>${ORIGIN}/p.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:player_loc>${ORIGIN}/embed/1</video:player_loc>${inner}</video:video></url></urlset>`;
      expect(schemaErrors(entry('<video:tag>a</video:tag><video:family_friendly>no</video:family_friendly>'), URLSET_SCHEMA)).toBe('');
      expect(schemaErrors(entry('<video:family_friendly>no</video:family_friendly><video:tag>a</video:tag>'), URLSET_SCHEMA)).toMatch(/tag.*not expected/);
      expect(schemaErrors(entry('<video:tag>a</video:tag>'.repeat(33)), URLSET_SCHEMA)).toMatch(/not expected/);
      expect(schemaErrors(entry('<video:duration>28801</video:duration>'), URLSET_SCHEMA)).toMatch(/duration/);
      expect(schemaErrors(entry('<video:unknown>1</video:unknown>'), URLSET_SCHEMA)).not.toBe('');
      const badIndex = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><lastmod>2025-01-01</lastmod></sitemap></sitemapindex>';
      expect(schemaErrors(badIndex, SITEMAP_INDEX_SCHEMA)).toMatch(/lastmod.*not expected/);
    });
  });

  describe('category, performer and tag sitemaps', () => {
    it("follow a category's rename in the tags of its videos", async () => {
      const id = await fixture({ categories: ['Before Rename'] });
      expect((await entryOf(id))[0]['video:video']?.['video:tag']).toEqual(['Before Rename']);
      await request(t.http).patch('/api/admin/categories/before-rename').set(bearer(admin)).send({ name: 'After Rename' }).expect(200);
      expect((await entryOf(id))[0]['video:video']?.['video:tag']).toEqual(['After Rename']);
    });

    it('name the tags of a video after its categories and performers', async () => {
      const id = await fixture({ categories: ['Tagged Category'], performers: ['Tagged Performer'], tags: ['Poolside', 'Tattooed'] });
      expect((await entryOf(id))[0]['video:video']?.['video:tag']).toEqual(['Tagged Category', 'Tagged Performer', 'Poolside', 'Tattooed']);
    });

    it('list the pages of the categories, performers and tags that have published videos, at their web client routes', async () => {
      await fixture({ categories: ['Gym Buddies', 'Outdoor'], performers: ['Rex Hart'], tags: ['Sweaty'] });
      await fixture({ categories: ['Unseen Niche'], tags: ['Unseen Tag'], status: 'processing' });
      const files = await index();
      const categoryLocs = (await Promise.all(files.filter((l) => l.includes('/sitemaps/categories-')).map(urlsOf))).flat().map((u) => u.loc);
      const performerLocs = (await Promise.all(files.filter((l) => l.includes('/sitemaps/performers-')).map(urlsOf))).flat().map((u) => u.loc);
      expect(categoryLocs).toEqual(expect.arrayContaining([`${ORIGIN}/categories/gym-buddies`, `${ORIGIN}/categories/outdoor`]));
      expect(categoryLocs).not.toContain(`${ORIGIN}/categories/unseen-niche`);
      expect(performerLocs).toEqual(expect.arrayContaining([`${ORIGIN}/performers/rex-hart`, `${ORIGIN}/performers/alex-stone`]));
      const tagLocs = (await Promise.all(files.filter((l) => l.includes('/sitemaps/tags-')).map(urlsOf))).flat().map((u) => u.loc);
      expect(tagLocs).toContain(`${ORIGIN}/tags/sweaty`);
      expect(tagLocs).not.toContain(`${ORIGIN}/tags/unseen-tag`);
      expect(new Set(categoryLocs).size).toBe(categoryLocs.length);
      // The limit holds for these files too.
      for (const loc of files.filter((l) => /\/sitemaps\/(categories|performers|tags)-/.test(l))) {
        expect((await urlsOf(loc)).length).toBeLessThanOrEqual(PER_FILE);
      }
    });
  });
});

describe('sitemaps without PUBLIC_URL, behind the web client (e2e)', () => {
  let t: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(tmpdir(), 'web-'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>shell</title><div id="root"></div>');
    // A stray file of the build must not shadow the API's.
    writeFileSync(path.join(webRoot, 'robots.txt'), 'User-agent: *\nDisallow:\n');
    t = await createTestApp({ TRUST_PROXY: 'loopback' }, { webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('answers robots.txt, the index and every file itself, not with the web client', async () => {
    const id = await insertVideo(t.db, { title: 'Shell Test', thumbnail: '/thumbs/s/poster.jpg' });
    t.videosChanged([id]);
    const robots = await request(t.http).get('/robots.txt').expect(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.text).toContain('Disallow: /api/');
    for (const url of ['/sitemap.xml', '/sitemaps/videos-1.xml']) {
      const res = await request(t.http).get(url).expect(200);
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(res.text).not.toContain('<div id="root">');
    }
    // Unknown files under /sitemaps/ are 404s, not the shell; the shell still serves the client's routes.
    const missing = await request(t.http).get('/sitemaps/nothing.xml').expect(404);
    expect(missing.text).not.toContain('<div id="root">');
    expect((await request(t.http).get('/categories/x').expect(200)).text).toContain('<div id="root">');
  });

  it('names the configured origin, http://localhost:PORT without PUBLIC_URL, whatever the request or a proxy names', async () => {
    const robots = await request(t.http).get('/robots.txt').set('X-Forwarded-Proto', 'https').set('X-Forwarded-Host', 'proxied.example').expect(200);
    expect(robots.text).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    const res = await request(t.http).get('/sitemap.xml').set('Host', 'direct.example:8080').expect(200);
    const locs = (parse(res.text) as { sitemapindex: { sitemap: { loc: string }[] } }).sitemapindex.sitemap.map((s) => s.loc);
    expect(locs).toContain('http://localhost:3000/sitemaps/videos-1.xml');
    const file = await request(t.http).get('/sitemaps/videos-1.xml').set('Host', 'direct.example:8080').expect(200);
    const urls = (parse(file.text) as { urlset: { url: UrlEntry[] } }).urlset.url;
    expect(urls[0]['video:video']?.['video:thumbnail_loc']).toBe('http://localhost:3000/thumbs/s/poster.jpg');
  });
});
