import { XMLParser } from 'fast-xml-parser';
import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { INDEX_HTML } from './helpers/stand-in-web';
import { renderedWeb, type RenderedWeb } from './helpers/web-render';
import { bearer, createTestApp, TestApp } from './helpers/test-app';

/**
 * One deployment, a brand per host (docs/decisions.md › "Brands by host"): titles, site name and canonical URLs follow the
 * host a request reached; the catalogue and the accounts are the same on every host.
 */
const MAIN = 'hunks.example';
const ATG = 'atg.example';
const JTG = 'jtg.example:8443';

/** The head's title, canonical URL, og:site_name and bootstrap site of a page's HTML (as a crawler reads them). */
function headOf(html: string) {
  const bootstrap = /<script type="application\/json" id="bootstrap">(.*?)<\/script>/s.exec(html)?.[1];
  return {
    title: /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1],
    canonical: /<link [^>]*rel="canonical" href="([^"]+)"/.exec(html)?.[1],
    siteName: /<meta [^>]*property="og:site_name" content="([^"]+)"/.exec(html)?.[1],
    site: bootstrap ? (JSON.parse(bootstrap) as { site: { name: string; brand: string } }).site : undefined,
  };
}

describe('Brands by host (e2e)', () => {
  let t: TestApp;
  let web: RenderedWeb;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    web = renderedWeb(INDEX_HTML);
    const { webRoot } = web;
    t = await createTestApp(
      {
        PUBLIC_URL: `https://${MAIN}`,
        SITE_NAME: 'Hunk Tube',
        BRAND_HOSTS: `${ATG}=atg,${JTG}=jtg`,
        BRAND_SITE_NAMES: 'atg=ATG Tube',
      },
      { webRoot },
    );
    // With a thumbnail: a sitemap's video entry needs one.
    ids.both = await insertVideo(t.db, { title: 'Pool party', atg_title: 'ATG: Poolside', jtg_title: 'JTG: Splash', thumbnail: '/thumbs/pool/poster.jpg' });
    ids.plain = await insertVideo(t.db, { title: 'Locker room', thumbnail: '/thumbs/locker/poster.jpg' });
    t.videosChanged([ids.both, ids.plain]);
  });
  afterAll(async () => {
    await t.close();
    web.remove();
  });

  const get = (host: string, url: string) => request(t.http).get(url).set('Host', host);

  it('answers GET /api/site with the brand and name of the host', async () => {
    const site = async (host: string) => {
      const { body } = await get(host, '/api/site').expect(200);
      return { name: body.name, brand: body.brand };
    };
    expect(await site(ATG)).toEqual({ name: 'ATG Tube', brand: 'atg' });
    expect(await site('ATG.example:3000')).toEqual({ name: 'ATG Tube', brand: 'atg' });
    // A brand without a name of its own takes SITE_NAME; an entry with a port matches that port only.
    expect(await site(JTG)).toEqual({ name: 'Hunk Tube', brand: 'jtg' });
    expect(await site('jtg.example')).toEqual({ name: 'Hunk Tube', brand: 'default' });
    expect(await site(MAIN)).toEqual({ name: 'Hunk Tube', brand: 'default' });
  });

  it('writes a watch page’s head with the brand’s title, its site name and its own origin', async () => {
    const page = async (host: string, id: number) => headOf((await get(host, `/video/${id}`).expect(200)).text);
    expect(await page(ATG, ids.both)).toEqual({
      title: 'ATG: Poolside - ATG Tube',
      canonical: `https://${ATG}/video/${ids.both}`,
      siteName: 'ATG Tube',
      site: expect.objectContaining({ name: 'ATG Tube', brand: 'atg' }),
    });
    expect(await page(JTG, ids.both)).toMatchObject({ title: 'JTG: Splash - Hunk Tube', canonical: `https://${JTG}/video/${ids.both}` });
    expect(await page(MAIN, ids.both)).toMatchObject({ title: 'Pool party - Hunk Tube', canonical: `https://${MAIN}/video/${ids.both}` });
    // A video without the brand's own title shows the main one.
    expect(await page(ATG, ids.plain)).toMatchObject({ title: 'Locker room - ATG Tube' });
    // And the home page is the brand's.
    expect(await headOf((await get(ATG, '/').expect(200)).text)).toMatchObject({ title: 'ATG Tube', canonical: `https://${ATG}/` });
  });

  it('serves each host its own robots.txt and sitemaps: its origin, its titles', async () => {
    expect((await get(ATG, '/robots.txt').expect(200)).text).toContain(`Sitemap: https://${ATG}/sitemap.xml`);
    expect((await get(MAIN, '/robots.txt').expect(200)).text).toContain(`Sitemap: https://${MAIN}/sitemap.xml`);
    const parser = new XMLParser({ ignoreAttributes: false });
    const videos = async (host: string) => {
      const index = parser.parse((await get(host, '/sitemap.xml').expect(200)).text);
      const first = [index.sitemapindex.sitemap].flat()[0].loc as string;
      expect(first.startsWith(`https://${host}/sitemaps/videos-`)).toBe(true);
      const file = parser.parse((await get(host, new URL(first).pathname).expect(200)).text);
      return [file.urlset.url].flat().map((u: { loc: string; 'video:video': { 'video:title': string } }) => [u.loc, u['video:video']['video:title']]);
    };
    // Each twice: a file kept for one host is never handed to another.
    for (let round = 0; round < 2; round += 1) {
      expect(await videos(ATG)).toEqual(
        expect.arrayContaining([[`https://${ATG}/video/${ids.both}`, 'ATG: Poolside'], [`https://${ATG}/video/${ids.plain}`, 'Locker room']]),
      );
      expect(await videos(MAIN)).toEqual(expect.arrayContaining([[`https://${MAIN}/video/${ids.both}`, 'Pool party']]));
    }
  });

  it('keeps one set of accounts and one catalogue behind every host', async () => {
    const email = `brands.${Date.now()}@example.com`;
    const registered = await request(t.http)
      .post('/api/auth/register')
      .set('Host', ATG)
      .send({ email, password: 'correct horse battery', displayName: 'Brand Hopper' })
      .expect(201);
    const login = await request(t.http).post('/api/auth/login').set('Host', MAIN).send({ email, password: 'correct horse battery' }).expect(200);
    expect(login.body.user.id).toBe(registered.body.user.id);
    await request(t.http)
      .post('/api/video/add-to-bookmarks')
      .set('Host', ATG)
      .set(bearer({ token: registered.body.accessToken }))
      .send({ videoId: ids.both, action: 'create' })
      .expect(200);
    const bookmarks = await get(MAIN, '/api/me/bookmarks').set(bearer({ token: login.body.accessToken })).expect(200);
    expect(bookmarks.body.data.map((v: { id: number }) => v.id)).toEqual([ids.both]);
    // The export names the site asked and its addresses.
    const exported = await get(ATG, '/api/me/export').set(bearer({ token: login.body.accessToken })).expect(200);
    expect(exported.body.site).toBe('ATG Tube');
    expect(exported.body.bookmarks[0].page).toBe(`https://${ATG}/video/${ids.both}`);
    expect(exported.headers['content-disposition']).toMatch(/filename="atg-tube-data-/);
  });

  it('takes removal requests naming a video by any of the deployment’s hosts', async () => {
    const res = await request(t.http)
      .post('/api/removal-requests')
      .set('Host', MAIN)
      .send({
        urls: [`https://${ATG}/video/${ids.both}`, `https://${JTG}/video/${ids.plain}`],
        reason: 'no-consent',
        details: 'That is me.',
        contact: 'me@example.com',
        good_faith: true,
      })
      .expect(201);
    expect(res.body).toMatchObject({ id: expect.any(Number) });
  });
});
