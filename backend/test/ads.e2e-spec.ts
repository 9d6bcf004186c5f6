import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AdEventsService } from '../src/ads/ad-events.service';
import { InvalidationBus } from '../src/common/cache/invalidation-bus';
import { standInWeb, type StandInWeb } from './helpers/stand-in-web';
import { TcpProxy } from './helpers/tcp-proxy';
import { bearer, createTestApp, onPostgresServer, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';
import { until } from './helpers/until';

const MAIN = 'hunktube.test';
const ATG = 'atg.test';

const directives = (csp: string | undefined): Record<string, string> =>
  Object.fromEntries((csp ?? '').split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...values] = d.split(/\s+/);
    return [name, values.join(' ')];
  }));

const PREROLL = {
  name: 'Home pre-roll',
  placement: 'preroll',
  kind: 'vast',
  vastUrl: 'https://vast.ads.test/tag?zone=1&cb=[CACHEBUSTING]',
  brands: ['default'],
  skipAfter: 5,
};
const BANNER = {
  name: 'Listing banner',
  placement: 'banner-listing',
  kind: 'html',
  html: '<a href="https://click.ads.test/go"><img src="https://img.ads.test/b.png" alt="Ad"></a><script>window.x = 1;</script>',
  brands: ['default', 'atg'],
  hosts: ['https://cdn.ads.test'],
};

/**
 * Ad zones (issue #35; api-contract.md › Ads; docs/ads.md): the admins' zones (auth, every field's limits, kinds
 * that fit the placement, 400 naming the field, nothing written by a refused request), the slots a viewer gets
 * (brand, members, embeds, active, a member's frequency cap), the events counted per zone and day, their figures,
 * and the pages' CSP letting in what the zones name, changed on the next page.
 */
describe('Ad zones (e2e)', () => {
  let t: TestApp;
  let web: StandInWeb;
  let admin: TestUser;
  let member: TestUser;
  const zones = () => request(t.http).get('/api/admin/ad-zones').set(bearer(admin)).expect(200).then((res) => res.body.data as { id: number }[]);
  const create = (body: object) => request(t.http).post('/api/admin/ad-zones').set(bearer(admin)).send(body);
  const slots = (query: string, host = MAIN, user?: TestUser) => {
    const req = request(t.http).get(`/api/ads?${query}`).set('Host', host);
    return (user ? req.set(bearer(user)) : req).expect(200).then((res) => res.body.data as { id: number }[]);
  };
  const flush = () => t.app.get(AdEventsService).flush();

  beforeAll(async () => {
    web = standInWeb();
    t = await createTestApp({ INGEST_WORKER: 'false', PUBLIC_URL: `http://${MAIN}`, BRAND_HOSTS: `${ATG}=atg` }, { webRoot: web.webRoot });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
  });
  afterAll(async () => {
    await t?.close();
    web?.remove();
  });

  it('keeps the zones to admins: 401 without a token, 403 for a member', async () => {
    await request(t.http).get('/api/admin/ad-zones').expect(401);
    await request(t.http).get('/api/admin/ad-zones').set(bearer(member)).expect(403);
    await request(t.http).post('/api/admin/ad-zones').send(PREROLL).expect(401);
    await request(t.http).post('/api/admin/ad-zones').set(bearer(member)).send(PREROLL).expect(403);
    await request(t.http).patch('/api/admin/ad-zones/1').set(bearer(member)).send({ active: false }).expect(403);
    await request(t.http).delete('/api/admin/ad-zones/1').set(bearer(member)).expect(403);
    await request(t.http).get('/api/admin/ad-zones/1/stats').set(bearer(member)).expect(403);
    await request(t.http).get('/api/admin/ad-stats').expect(401);
    expect(await zones()).toEqual([]);
  });

  it('creates a zone with its defaults, lists it and answers it privately', async () => {
    const res = await create(PREROLL).expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Home pre-roll',
      placement: 'preroll',
      kind: 'vast',
      vastUrl: PREROLL.vastUrl,
      html: null,
      hosts: [],
      brands: ['default'],
      members: false,
      embeds: false,
      skipAfter: 5,
      frequencyCap: null,
      weight: 1,
      active: true,
    });
    const list = await request(t.http).get('/api/admin/ad-zones').set(bearer(admin)).expect(200);
    expect(list.body.data).toEqual([res.body]);
    expect(list.headers['cache-control']).toBe('private, no-store');
    await request(t.http).delete(`/api/admin/ad-zones/${res.body.id}`).set(bearer(admin)).expect(204);
  });

  it.each([
    [{ ...PREROLL, name: '' }, /name/],
    [{ ...PREROLL, name: 'x'.repeat(81) }, /name/],
    [{ ...PREROLL, placement: 'sidebar' }, /placement must be one of/],
    [{ ...PREROLL, kind: 'flash' }, /kind must be one of/],
    [{ ...PREROLL, kind: 'html', html: '<b>x</b>', vastUrl: undefined }, /kind must be vast for placement preroll/],
    [{ ...BANNER, kind: 'vast', vastUrl: 'https://a.test/v', html: undefined }, /kind must be html for placement banner-listing/],
    [{ ...PREROLL, vastUrl: undefined }, /vastUrl is required/],
    [{ ...PREROLL, vastUrl: 'javascript:alert(1)' }, /vastUrl must be an http or https URL/],
    [{ ...PREROLL, vastUrl: `https://a.test/${'x'.repeat(2048)}` }, /vastUrl is at most 2048/],
    [{ ...PREROLL, html: '<b>x</b>' }, /html is only for html zones/],
    [{ ...BANNER, html: undefined }, /html is required/],
    [{ ...BANNER, html: 'x'.repeat(20_001) }, /html must be 1 to 20000/],
    [{ ...BANNER, skipAfter: 5 }, /skipAfter is only for vast zones/],
    [{ ...BANNER, vastUrl: 'https://a.test/v' }, /vastUrl is only for vast zones/],
    [{ ...PREROLL, brands: [] }, /brands must list at least one brand/],
    [{ ...PREROLL, brands: ['acme'] }, /each of brands must be one of/],
    [{ ...PREROLL, brands: 'default' }, /brands must list at least one brand/],
    [{ ...PREROLL, brands: ['default', 'default'] }, /brands must not repeat/],
    [{ ...PREROLL, members: 'yes' }, /members must be true or false/],
    [{ ...PREROLL, skipAfter: 301 }, /skipAfter must be a whole number/],
    [{ ...PREROLL, skipAfter: 2.5 }, /skipAfter must be a whole number/],
    [{ ...PREROLL, weight: 0 }, /weight must be a whole number from 1 to 100/],
    [{ ...PREROLL, weight: '5' }, /weight must be a whole number/],
    [{ ...PREROLL, frequencyCap: { count: 0, hours: 24 } }, /frequencyCap.count must be from 1/],
    [{ ...PREROLL, frequencyCap: { count: 3, hours: 721 } }, /frequencyCap.hours must be from 1 to 720/],
    [{ ...PREROLL, frequencyCap: { count: 3 } }, /frequencyCap.hours/],
    [{ ...PREROLL, frequencyCap: { count: 3, hours: 24, extra: 1 } }, /extra should not exist/],
    [{ ...PREROLL, frequencyCap: 3 }, /frequencyCap must be/],
    [{ ...BANNER, hosts: ['cdn.ads.test'] }, /each of hosts must be an origin/],
    [{ ...BANNER, hosts: ['https://cdn.ads.test/path'] }, /each of hosts must be an origin/],
    [{ ...BANNER, hosts: Array.from({ length: 21 }, (_, i) => `https://h${i}.test`) }, /hosts has at most 20/],
    [{ ...PREROLL, id: 7 }, /property id should not exist/],
    [{ ...PREROLL, owner: 'me' }, /property owner should not exist/],
  ])('refuses %j with a 400 naming the field, and writes nothing', async (body, message) => {
    const res = await create(body).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: expect.stringMatching(message) });
    expect(await zones()).toEqual([]);
  });

  it('changes any subset of a zone (PATCH), moves its kind along with its fields, 404 for an unknown one', async () => {
    const { body: zone } = await create({ ...PREROLL, placement: 'pause' }).expect(201);
    const patch = (body: object) => request(t.http).patch(`/api/admin/ad-zones/${zone.id}`).set(bearer(admin)).send(body);
    expect((await patch({ weight: 7, frequencyCap: { count: 2, hours: 12 } }).expect(200)).body).toMatchObject({ weight: 7, frequencyCap: { count: 2, hours: 12 }, name: PREROLL.name, skipAfter: 5 });
    // html in a vast zone: refused, nothing changed.
    expect((await patch({ html: '<b>x</b>' }).expect(400)).body.error).toMatch(/html is only for html zones/);
    // A pause zone made html leaves its tag URL and skip offset behind.
    expect((await patch({ kind: 'html', html: '<b>Pause</b>' }).expect(200)).body).toMatchObject({ kind: 'html', html: '<b>Pause</b>', vastUrl: null, skipAfter: null, weight: 7 });
    expect((await patch({ placement: 'preroll' }).expect(400)).body.error).toMatch(/kind must be vast for placement preroll/);
    expect((await patch({ frequencyCap: null }).expect(200)).body.frequencyCap).toBeNull();
    await patch({ weight: 101 }).expect(400);
    await patch({ id: 3 }).expect(400);
    await request(t.http).patch('/api/admin/ad-zones/999999').set(bearer(admin)).send({ weight: 2 }).expect(404);
    await request(t.http).patch('/api/admin/ad-zones/abc').set(bearer(admin)).send({ weight: 2 }).expect(400);
    await request(t.http).delete('/api/admin/ad-zones/999999').set(bearer(admin)).expect(404);
    await request(t.http).delete(`/api/admin/ad-zones/${zone.id}`).set(bearer(admin)).expect(204);
    await request(t.http).delete(`/api/admin/ad-zones/${zone.id}`).set(bearer(admin)).expect(404);
  });

  describe('slots and rules', () => {
    const made: Record<string, number> = {};
    beforeAll(async () => {
      made.preroll = (await create(PREROLL).expect(201)).body.id;
      made.banner = (await create(BANNER).expect(201)).body.id;
      made.members = (await create({ ...PREROLL, name: 'For members', members: true, frequencyCap: { count: 2, hours: 24 } }).expect(201)).body.id;
      made.embeds = (await create({ ...PREROLL, name: 'Embeds too', embeds: true, brands: ['atg'] }).expect(201)).body.id;
      made.off = (await create({ ...PREROLL, name: 'Off', active: false }).expect(201)).body.id;
    });
    afterAll(async () => {
      for (const id of Object.values(made)) await request(t.http).delete(`/api/admin/ad-zones/${id}`).set(bearer(admin));
    });

    it("answers the active zones of the request's brand for guests, with what the client needs", async () => {
      const data = await slots('placement=preroll');
      expect(data).toEqual([
        { id: made.preroll, placement: 'preroll', kind: 'vast', vastUrl: PREROLL.vastUrl, html: null, skipAfter: 5, weight: 1, frequencyCap: null },
        expect.objectContaining({ id: made.members, frequencyCap: { count: 2, hours: 24 } }),
      ]);
      // Another brand's site: only its own zones.
      expect((await slots('placement=preroll', ATG)).map((z) => z.id)).toEqual([made.embeds]);
      expect((await slots('placement=banner-listing', ATG)).map((z) => z.id)).toEqual([made.banner]);
      expect(await slots('placement=banner-watch')).toEqual([]);
      const res = await request(t.http).get('/api/ads?placement=preroll').set('Host', MAIN).expect(200);
      expect(res.headers['cache-control']).toBe('public, no-cache');
      await request(t.http).get('/api/ads?placement=preroll').set('Host', MAIN).set('If-None-Match', res.headers.etag).expect(304);
    });

    it('gives embeds only the zones marked for them, and members only theirs, privately', async () => {
      expect((await slots('placement=preroll&embed=true', ATG)).map((z) => z.id)).toEqual([made.embeds]);
      expect(await slots('placement=preroll&embed=true')).toEqual([]);
      expect((await slots('placement=preroll', MAIN, member)).map((z) => z.id)).toEqual([made.members]);
      const res = await request(t.http).get('/api/ads?placement=preroll').set('Host', MAIN).set(bearer(member)).expect(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
    });

    it("holds a member's frequency cap on the server, counting impressions still buffered and written", async () => {
      const viewer = await registerUser(t.http);
      const seen = () => request(t.http).post(`/api/ads/${made.members}/events`).set(bearer(viewer)).send({ event: 'impression' }).expect(204);
      await seen();
      expect((await slots('placement=preroll', MAIN, viewer)).map((z) => z.id)).toEqual([made.members]);
      await flush();
      await seen(); // one written, one buffered: the cap (2) is reached
      expect(await slots('placement=preroll', MAIN, viewer)).toEqual([]);
      // Another member is not capped, nor a guest's impressions counted for anyone.
      expect((await slots('placement=preroll', MAIN, member)).map((z) => z.id)).toEqual([made.members]);
    });

    it('refuses bad queries with 400', async () => {
      await request(t.http).get('/api/ads').expect(400);
      await request(t.http).get('/api/ads?placement=sidebar').expect(400);
      await request(t.http).get('/api/ads?placement=preroll&embed=yes').expect(400);
      await request(t.http).get('/api/ads?placement=preroll&videoId=0').expect(400);
      await request(t.http).get('/api/ads?placement=preroll&other=1').expect(400);
      await request(t.http).get('/api/ads?placement=preroll&videoId=12').expect(200);
    });

    it('counts events per zone and day and answers the figures of one zone and of all', async () => {
      const send = (id: number | string, body: object) => request(t.http).post(`/api/ads/${id}/events`).send(body);
      for (const event of ['request', 'request', 'fill', 'impression', 'complete', 'click']) await send(made.preroll, { event }).expect(204);
      await send(made.banner, { event: 'error' }).expect(204);
      await send(made.preroll, { event: 'view' }).expect(400);
      await send(made.preroll, {}).expect(400);
      await send(made.preroll, { event: 'click', extra: 1 }).expect(400);
      await send('abc', { event: 'click' }).expect(400);
      await send(999999, { event: 'click' }).expect(404);
      // Buffered counts are in the figures before and after they are written.
      const stats = async () => (await request(t.http).get(`/api/admin/ad-zones/${made.preroll}/stats?days=7`).set(bearer(admin)).expect(200)).body;
      const before = await stats();
      await flush();
      const after = await stats();
      expect(after).toEqual(before);
      expect(after).toMatchObject({ id: made.preroll, name: PREROLL.name, days: 7, totals: { requests: 2, fills: 1, impressions: 1, completes: 1, skips: 0, clicks: 1, errors: 0 } });
      expect(after.daily).toHaveLength(7);
      expect(after.daily[6]).toMatchObject({ requests: 2, fills: 1, impressions: 1, completes: 1, clicks: 1 });
      expect(after.daily[0]).toMatchObject({ requests: 0, impressions: 0 });
      await send(made.preroll, { event: 'skip' }).expect(204);
      const all = (await request(t.http).get('/api/admin/ad-stats?days=30').set(bearer(admin)).expect(200)).body;
      expect(all.days).toBe(30);
      expect(all.daily).toHaveLength(30);
      expect(all.zones.find((z: { id: number }) => z.id === made.preroll)).toMatchObject({ name: PREROLL.name, placement: 'preroll', active: true, totals: { requests: 2, skips: 1 } });
      expect(all.zones.find((z: { id: number }) => z.id === made.banner).totals.errors).toBe(1);
      expect(all.daily[29].errors).toBe(1);
      await request(t.http).get(`/api/admin/ad-zones/${made.preroll}/stats?days=5`).set(bearer(admin)).expect(400);
      await request(t.http).get('/api/admin/ad-zones/999999/stats').set(bearer(admin)).expect(404);
    });

    it("lets the zones' hosts and inline scripts into the pages' CSP, and a change applies on the next page", async () => {
      const csp = async () => directives((await request(t.http).get('/').set('Host', MAIN).expect(200)).headers['content-security-policy']);
      const policy = await csp();
      expect(policy['connect-src']).toContain('https://vast.ads.test');
      expect(policy['img-src']).toContain('https://img.ads.test');
      expect(policy['media-src']).toContain('https://cdn.ads.test');
      expect(policy['frame-src']).toContain('https://click.ads.test');
      expect(policy['script-src']).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
      expect(policy['script-src']).not.toContain("'unsafe-inline'");
      // An API answer carries no ad hosts.
      expect((await request(t.http).get('/api/site').expect(200)).headers['content-security-policy']).not.toContain('ads.test');
      await request(t.http).patch(`/api/admin/ad-zones/${made.banner}`).set(bearer(admin)).send({ active: false }).expect(200);
      expect((await csp())['img-src']).not.toContain('https://img.ads.test');
      expect(await slots('placement=banner-listing')).toEqual([]);
      await request(t.http).patch(`/api/admin/ad-zones/${made.banner}`).set(bearer(admin)).send({ active: true }).expect(200);
      expect((await csp())['img-src']).toContain('https://img.ads.test');
    });
  });

  it('writes no ad host into the CSP when there is no zone', async () => {
    for (const zone of await zones()) await request(t.http).delete(`/api/admin/ad-zones/${zone.id}`).set(bearer(admin)).expect(204);
    const csp = (await request(t.http).get('/').set('Host', MAIN).expect(200)).headers['content-security-policy'];
    expect(csp).not.toContain('ads.test');
    expect(directives(csp)['script-src']).toBe("'self'");
  });
});

// Registered only where the PostgreSQL server and Redis are: both behind real TCP proxies, cut in turn.
if (process.env.TEST_REDIS_URL && onPostgresServer()) {
  describe('Ad zones through outages (e2e)', () => {
    let t: TestApp;
    let web: StandInWeb;
    let admin: TestUser;
    let pg: TcpProxy;
    let redis: TcpProxy;

    beforeAll(async () => {
      pg = await TcpProxy.to(process.env.TEST_DATABASE_URL as string);
      redis = await TcpProxy.to(process.env.TEST_REDIS_URL as string);
      web = standInWeb();
      t = await createTestApp(
        {
          INGEST_WORKER: 'false',
          PUBLIC_URL: `http://${MAIN}`,
          REDIS_URL: redis.url(process.env.TEST_REDIS_URL as string),
          REDIS_PREFIX: `ads-outage-${randomUUID().slice(0, 8)}:`,
        },
        { webRoot: web.webRoot },
        (url) => pg.url(url),
      );
      admin = await registerAdmin(t);
    });
    afterAll(async () => {
      await pg?.restore();
      await redis?.restore();
      await t?.close();
      await pg?.close();
      await redis?.close();
      web?.remove();
    });

    it('reads the zones once for a burst of pages and files while the bus is down, and keeps their CSP while the database is', async () => {
      await request(t.http).post('/api/admin/ad-zones').set(bearer(admin)).send(BANNER).expect(201);
      const imgSrc = async () => directives((await request(t.http).get('/').set('Host', MAIN).expect(200)).headers['content-security-policy'])['img-src'];
      expect(await imgSrc()).toContain('https://img.ads.test');

      await redis.cut();
      await until('the bus to be down', async () => !t.app.get(InvalidationBus).live);
      const reads = vi.spyOn(t.db, 'query');
      const zoneReads = () => reads.mock.calls.filter(([sql]) => String(sql).includes('FROM ad_zones')).length;
      for (let n = 0; n < 5; n++) {
        expect(await imgSrc()).toContain('https://img.ads.test');
        await request(t.http).get('/thumbs/none.jpg');
        await request(t.http).get('/assets/none.js');
      }
      expect(zoneReads()).toBeLessThanOrEqual(1);
      reads.mockRestore();

      await pg.cut();
      // As when the bus has missed a change: the zones are asked for again, and the database does not answer.
      t.clearCaches('missed');
      const csp = (await request(t.http).get('/').set('Host', MAIN)).headers['content-security-policy'];
      expect(directives(csp)['img-src']).toContain('https://img.ads.test');
      expect(directives(csp)['script-src']).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
      expect((await request(t.http).get('/api/ads?placement=banner-listing').set('Host', MAIN).expect(200)).body.data).toHaveLength(1);
    });
  });
}
