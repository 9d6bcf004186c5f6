import request from 'supertest';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';
import { insertVideo } from './helpers/factories';
import { type Answer, type Checker, conformanceChecker, type OpenApiDocument } from './helpers/openapi-conformance';

/**
 * Every GET the OpenAPI document lists, called as a guest, a member and an admin, and a few known-bad requests:
 * each answer's status must be one the document declares for the operation, and its body must match that
 * status's schema (helpers/openapi-conformance.ts). So the document cannot drift from what the API sends; when
 * this fails, the document is what to fix (docs/api-conventions.md), unless the API broke the contract.
 */
describe('The API’s answers against its OpenAPI document (e2e)', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let check: Checker;
  let member: TestUser;
  let admin: TestUser;
  /** Path parameters and required query strings of every documented GET, from the data seeded below. */
  let filled: Record<string, string>;

  const ORIGIN = 'https://hunktube.example';

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false', PUBLIC_URL: ORIGIN });
    member = await registerUser(t.http);
    admin = await registerAdmin(t);
    const slug = 'conformance-video';
    const videoId = await insertVideo(t.db, {
      slug, url: `/2024/06/${slug}.mp4`, categories: ['Locker Room'], performers: ['Alex Stone'], tags: ['Jocks'], media_ready: true,
    });
    const otherId = await insertVideo(t.db, { categories: ['Locker Room'], performers: ['Alex Stone'] });
    const [{ id: jobId }] = await t.db.query<{ id: number }[]>(
      `INSERT INTO ingest_jobs (video_id, kind) VALUES ($1, 'ingest') RETURNING id`,
      [videoId],
    );

    // The member's lists hold something, so that their items are checked too.
    const as = (user: TestUser) => ({ ...bearer(user), 'Content-Type': 'application/json' });
    const send = async (method: 'post' | 'put', url: string, body: object, expected: number) =>
      request(t.http)[method](url).set(as(member)).send(body).expect(expected);
    await send('post', '/api/video/add-to-bookmarks', { videoId, userId: member.id, action: 'create' }, 200);
    await send('post', '/api/video/add-to-watch-later', { videoId, userId: member.id, action: 'create' }, 200);
    await send('post', '/api/video/increment-likes', { videoId }, 200);
    await send('post', '/api/video/add-history', { videoId, userId: member.id }, 204);
    await send('put', `/api/me/history/${otherId}/position`, { position: 30 }, 200);
    await send('put', '/api/me/following/alex-stone', {}, 200);
    const playlist = await send('post', '/api/playlists/create-playlist', { video_id: videoId, title: 'Conformance List', user_id: member.id }, 201);
    await request(t.http)
      .post('/api/removal-requests')
      .send({ urls: [`${ORIGIN}/video/${videoId}`], reason: 'copyright', contact: 'owner@example.com', good_faith: true })
      .expect(201);

    // Zones for both kinds and a member's view, so that GET /api/ads answers each field.
    const zone = await request(t.http).post('/api/admin/ad-zones').set(bearer(admin))
      .send({ name: 'Conformance pre-roll', placement: 'preroll', kind: 'vast', vastUrl: 'https://ads.example/vast', brands: ['default'], members: true, frequencyCap: { count: 3, hours: 24 } })
      .expect(201);
    await request(t.http).post('/api/admin/ad-zones').set(bearer(admin))
      .send({ name: 'Conformance banner', placement: 'banner-footer', kind: 'html', html: '<b>Ad</b>', brands: ['default'] })
      .expect(201);
    await request(t.http).post(`/api/ads/${zone.body.id}/events`).send({ event: 'impression' }).expect(204);

    filled = {
      '/api/ads': '/api/ads?placement=preroll',
      '/api/admin/ad-zones/{id}/stats': `/api/admin/ad-zones/${zone.body.id}/stats`,
      '/api/videos/{id}': `/api/videos/${videoId}`,
      '/api/videos/{id}/related': `/api/videos/${videoId}/related`,
      '/api/cards': `/api/cards?ids=${otherId},${videoId}`,
      '/api/admin/videos/{id}/stats': `/api/admin/videos/${videoId}/stats`,
      '/api/playlists/{id}': `/api/playlists/${playlist.body.data.playlist_id}`,
      '/api/video/secure': `/api/video/secure?path=/videos/2024/06/${slug}/index.m3u8`,
      '/api/admin/jobs/{id}': `/api/admin/jobs/${jobId}`,
      '/sitemaps/{file}': '/sitemaps/videos-1.xml',
      '/api/tags/{id}': '/api/tags/jocks',
    };

    doc = (await request(t.http).get('/api/docs-json').expect(200)).body as OpenApiDocument;
    check = conformanceChecker(doc);
  });
  afterAll(() => t.close());

  const gets = () =>
    Object.entries(doc.paths).flatMap(([template, item]) => (item.get ? [{ template, operation: item.get }] : []));

  /** The member by bearer token, the admin by the session cookie: both of the document's security schemes. */
  const roles = {
    guest: (url: string) => request(t.http).get(url),
    member: (url: string) => request(t.http).get(url).set(bearer(member)),
    admin: (url: string) => request(t.http).get(url).set('Cookie', `access_token=${admin.token}`),
  };

  it('fills every documented GET (a new one with a path parameter or a required query is added to `filled`)', () => {
    const unfilled = gets()
      .filter(({ template, operation }) => template.includes('{') || operation.parameters?.some((p) => p.in === 'query' && p.required))
      .map(({ template }) => template)
      .filter((template) => !filled[template]);
    expect(unfilled).toEqual([]);
    expect(gets().length).toBeGreaterThanOrEqual(30);
  });

  for (const [role, who] of [['guest', 'a guest'], ['member', 'a member'], ['admin', 'an admin']] as const) {
    it(`answers every documented GET as ${who} as the document says`, async () => {
      const problems: string[] = [];
      for (const { template } of gets()) {
        const res = await roles[role](filled[template] ?? template);
        problems.push(...check('get', template, res as Answer));
      }
      expect(problems).toEqual([]);
    });
  }

  it('lets in whom the document’s security says: anyone where it is empty, members where it names a session', async () => {
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const { template, operation } of gets()) {
      const url = filled[template] ?? template;
      const adminOnly = template.startsWith('/api/admin/');
      // The member's own playlist: another account, the admin's included, is refused it (403).
      const ownedByMember = template === '/api/playlists/{id}';
      const isPublic = operation.security?.length === 0;
      for (const role of ['guest', 'member', 'admin'] as const) {
        const status = (await roles[role](url)).status;
        outcomes.push(`${role} GET ${template} ${status < 300 ? '2xx' : status}`);
        const allowed = isPublic || (role === 'member' ? !adminOnly : role === 'admin' && !ownedByMember);
        expected.push(`${role} GET ${template} ${allowed ? '2xx' : role === 'guest' ? 401 : 403}`);
      }
    }
    expect(outcomes).toEqual(expected);
  });

  it.each([
    ['a limit of 0', 'guest', '/api/videos', '/api/videos?limit=0', 400],
    ['an unknown sort', 'guest', '/api/videos', '/api/videos?sort=best', 400],
    ['an unknown query parameter', 'member', '/api/videos', '/api/videos?nope=1', 400],
    ['a NUL character in the query', 'guest', '/api/videos', '/api/videos?q=a%00b', 400],
    ['a video id that is not a number', 'guest', '/api/videos/{id}', '/api/videos/abc', 400],
    ['an unknown video', 'guest', '/api/videos/{id}', '/api/videos/999999', 404],
    ['an unknown video’s related videos', 'guest', '/api/videos/{id}/related', '/api/videos/999999/related', 404],
    ['cards without ids', 'guest', '/api/cards', '/api/cards', 400],
    ['a stream path outside /videos/', 'guest', '/api/video/secure', '/api/video/secure?path=/etc/passwd', 400],
    ['the stream of an unknown video', 'guest', '/api/video/secure', '/api/video/secure?path=/videos/2024/06/nope/index.m3u8', 404],
    ['a guest asking who they are', 'guest', '/api/auth/me', '/api/auth/me', 401],
    ['a guest’s history', 'guest', '/api/me/history', '/api/me/history', 401],
    ['an unknown tag', 'guest', '/api/tags/{id}', '/api/tags/no-such-tag', 404],
    ['a guest’s export', 'guest', '/api/me/export', '/api/me/export', 401],
    ['a page of 0 of the member’s likes', 'member', '/api/me/likes', '/api/me/likes?page=0', 400],
    ['an unknown playlist', 'member', '/api/playlists/{id}', '/api/playlists/999999', 404],
    ['a member in the dashboard', 'member', '/api/admin/dashboard', '/api/admin/dashboard', 403],
    ['statistics over 5 days', 'admin', '/api/admin/videos/{id}/stats', '/api/admin/videos/1/stats?days=5', 400],
    ['an unknown job', 'admin', '/api/admin/jobs/{id}', '/api/admin/jobs/999999', 404],
    ['a job id that is not a number', 'admin', '/api/admin/jobs/{id}', '/api/admin/jobs/abc', 400],
    ['an unknown sitemap file', 'guest', '/sitemaps/{file}', '/sitemaps/nope-1.xml', 404],
  ] as const)('answers %s (%s, %s) with a status and body the document declares', async (_name, role, template, url, status) => {
    const res = await roles[role](url);
    expect(res.status).toBe(status);
    expect(check('get', template, res as Answer)).toEqual([]);
  });

  describe('the check itself', () => {
    /** The document with one change, and a checker for it. */
    const doctored = (change: (copy: OpenApiDocument) => void): Checker => {
      const copy = structuredClone(doc);
      change(copy);
      return conformanceChecker(copy);
    };

    it('refuses a status the operation does not declare', async () => {
      const res = await roles.guest('/api/videos/999999');
      const without404 = doctored((copy) => delete copy.paths['/api/videos/{id}'].get.responses['404']);
      expect(without404('get', '/api/videos/{id}', res as Answer)).toEqual([expect.stringContaining('the document declares only')]);
    });

    it('refuses a body off its schema: a field of another type, or a field the schema does not name', async () => {
      const res = await roles.guest(filled['/api/videos/{id}']);
      expect(check('get', '/api/videos/{id}', res as Answer)).toEqual([]);
      const titleANumber = doctored((copy) => {
        (copy.components!.schemas!.VideoDto.properties as Record<string, object>).title = { type: 'integer' };
      });
      expect(titleANumber('get', '/api/videos/{id}', res as Answer)).toEqual([expect.stringContaining('body/title must be integer')]);
      const noTitle = doctored((copy) => {
        const schema = copy.components!.schemas!.VideoDto as { properties: Record<string, object>; required: string[] };
        delete schema.properties.title;
        schema.required = schema.required.filter((name) => name !== 'title');
      });
      expect(noTitle('get', '/api/videos/{id}', res as Answer)).toEqual([expect.stringContaining('must NOT have additional properties')]);
    });

    it('refuses an error body off the contract’s shape, and an errorCode the document does not list', () => {
      const answer = (body: object): Answer => ({ status: 404, headers: { 'content-type': 'application/json' }, body, text: JSON.stringify(body) });
      expect(check('get', '/api/videos/{id}', answer({ error: 'Video not found', statusCode: 404 }))).toEqual([]);
      expect(check('get', '/api/videos/{id}', answer({ message: 'Video not found', statusCode: 404 }))).not.toEqual([]);
      expect(check('get', '/api/videos/{id}', answer({ error: 'Video not found', errorCode: 'NOPE', statusCode: 404 }))).not.toEqual([]);
    });
  });
});
