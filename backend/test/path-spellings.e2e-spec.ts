import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { CROSS_SITE_REFUSED } from '../src/common/http/request-guards';
import { REMOVAL_REASONS } from '../src/removal-requests/removal-request-reasons';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

/**
 * Issue #29, point 1: the cross-site and JSON-only guards used to compare `req.path` with `/api/` by letter case,
 * while the router took `/API/…`, so a page on a sibling subdomain signed members out and replaced posters through
 * `/API/…`. Every write route of the OpenAPI document is sent here under every other spelling of its path (letter
 * case, repeated slashes, `.` and `..` segments, percent-encoding, a trailing slash), cross-site with the admin's
 * cookie, exactly as a browser would send it (raw paths: an HTTP client library would normalise some of them): each
 * is refused before any route sees it, and nothing in the database changes. The API's paths are case-sensitive:
 * only one spelling exists.
 */

/** A request sent as written: Node's http, with the path untouched. */
interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Other spellings of an `/api/…` path that a lenient router or a proxy could take for it. */
export function spellingsOf(path: string): string[] {
  const rest = path.slice('/api/'.length);
  const [first, ...others] = rest.split('/');
  const flip = (s: string) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
  const encodeFirst = (s: string) => `%${s.charCodeAt(0).toString(16)}${s.slice(1)}`;
  return [
    `/API/${rest}`,
    `/Api/${rest}`,
    `/${flip('api')}/${flip(rest)}`,
    path.toUpperCase(),
    `/${path}`,
    `/api//${rest}`,
    `/./api/${rest}`,
    `/api/./${rest}`,
    `/api/x/../${rest}`,
    `/%61pi/${rest}`,
    `/%41PI/${rest}`,
    `/api/${encodeFirst(first)}${others.length ? `/${others.join('/')}` : ''}`,
    `/api%2F${rest.replaceAll('/', '%2F')}`,
    `${path}/`,
  ];
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(600)]);

function multipart(fields: Record<string, string>, file: { name: string; filename: string; type: string; bytes: Buffer }): { type: string; body: Buffer } {
  const boundary = `----spelling${randomBytes(6).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

describe('one spelling of every API path (e2e)', () => {
  let t: TestApp;
  let port: number;
  let admin: TestUser;
  let member: TestUser;
  let videoId: number;
  let playlistId: number;
  let jobId: number;
  let removalId: number;
  let posterPath: string;
  let writeRoutes: [method: string, path: string, multipartBody: boolean][];

  /** Every row of every table, as one digest per table: what "nothing changed" means. */
  async function databaseState(): Promise<Record<string, string>> {
    // Counts buffered in the process reach the tables first, so that a view counted through a spelling shows.
    await request(t.http).post('/api/admin/refresh-views').set(bearer(admin)).expect(200);
    const tables = await t.db.query<{ name: string }[]>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const state: Record<string, string> = {};
    // (site_rankings: the refresh above recomputes them, with the time it did)
    for (const { name } of tables.filter((table) => table.name !== 'site_rankings')) {
      const [row] = await t.db.query(`SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM "${name}" x`);
      state[name] = `${row.n}:${row.digest}`;
    }
    return state;
  }

  /** The path with its parameters filled with ids that exist and belong to the admin. */
  const filled = (path: string) =>
    path
      .replace('{performerId}', 'spelling-performer')
      .replace('{videoId}', String(videoId))
      .replace(/\/playlists\/\{id\}/, `/playlists/${playlistId}`)
      .replace(/\/jobs\/\{id\}/, `/jobs/${jobId}`)
      .replace(/\/removal-requests\/\{id\}/, `/removal-requests/${removalId}`)
      .replace(/\/(categories|performers)\/\{id\}/, '/$1/spelling-category');

  /** A body that the route would take from the admin, so that a request which got through would change something. */
  function bodyFor(method: string, path: string): { type: string; body: Buffer | string } {
    if (path === '/api/admin/videos') return multipart({ title: 'Planted through a spelling' }, { name: 'file', filename: 'clip.mp4', type: 'video/mp4', bytes: MP4 });
    if (path === '/api/admin/update-thumbnail') return multipart({ uploadPath: posterPath }, { name: 'file', filename: 'poster.png', type: 'image/png', bytes: PNG });
    const body: Record<string, unknown> = {
      videoId, userId: admin.id, action: 'create', name: 'Planted', title: 'Planted', displayName: 'Planted Name',
      email: 'planted@example.com', password: 'violet harbour lantern 42', videoDuration: 60, position: 5, paused: true,
      state: 'dismissed', id: videoId, videoIds: [videoId], playlistId,
    };
    return { type: 'application/json', body: JSON.stringify(method === 'DELETE' && path === '/api/me/account' ? { password: 'x' } : body) };
  }

  beforeAll(async () => {
    t = await createTestApp({ INGEST_WORKER: 'false' });
    const server = t.app.getHttpServer() as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    posterPath = '/thumbs/spelling/poster.jpg';
    videoId = await insertVideo(t.db, { title: 'Spelling target', performers: ['Spelling Performer'], categories: ['Spelling Category'], thumbnail: posterPath });
    playlistId = (await request(t.http).post('/api/playlists/create-playlist').set(bearer(admin)).send({ video_id: videoId, title: 'Mine' }).expect(201)).body.data.id;
    const [job] = await t.db.query(`INSERT INTO ingest_jobs (kind, state, video_id) VALUES ('ingest', 'failed', $1) RETURNING id`, [videoId]);
    jobId = Number(job.id);
    removalId = (await request(t.http).post('/api/removal-requests').send({ urls: [String(videoId)], reason: REMOVAL_REASONS[0], contact: 'owner@example.com', good_faith: true }).expect(201)).body.id;
    const doc = (await request(t.http).get('/api/docs-json').expect(200)).body as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> };
    writeRoutes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => [method.toUpperCase(), path, Boolean(op.requestBody?.content['multipart/form-data'])] as [string, string, boolean]),
    );
  });
  afterAll(() => t?.close());

  it('finds the write routes in the OpenAPI document', () => {
    // The document names every write the contract has (and more): the test below covers what it names.
    expect(writeRoutes.length).toBeGreaterThanOrEqual(39);
    expect(writeRoutes).toContainEqual(['POST', '/api/auth/logout', false]);
    expect(writeRoutes).toContainEqual(['POST', '/api/admin/update-thumbnail', true]);
  });

  it('refuses every write route under every spelling, cross-site with the cookie, and nothing changes', async () => {
    const before = await databaseState();
    const cookie = `access_token=${admin.token}`;
    const seen: string[] = [];
    for (const [method, template] of writeRoutes) {
      const path = filled(template);
      const { type, body } = bodyFor(method, template);
      for (const spelling of [path, ...spellingsOf(path)]) {
        // A page on a sibling subdomain (same site), in a browser that says so, and in one that sends only Origin.
        const sites: Record<string, string>[] = [{ 'Sec-Fetch-Site': 'same-site', Origin: 'https://attacker.hunktube.test' }, { Origin: 'https://attacker.hunktube.test' }];
        for (const site of sites) {
          const answer = await raw(port, method, spelling, { Host: 'hunktube.test', Cookie: cookie, 'Content-Type': type, ...site }, body);
          seen.push(`${method} ${spelling} ${answer.status}`);
          // Refused by the cross-site guard, or, for a spelling that only looks like the API's, answered 404 before
          // anything else: either way in the contract's shape, and no route saw it.
          const refusal = spelling === path || spelling === `${path}/`
            ? { status: 403, body: { error: CROSS_SITE_REFUSED, statusCode: 403 } }
            : expect.toBeOneOf([
              { status: 403, body: { error: CROSS_SITE_REFUSED, statusCode: 403 } },
              { status: 404, body: { error: expect.stringMatching(/^Cannot /), statusCode: 404 } },
            ]);
          expect({ request: `${method} ${spelling}`, answer: { status: answer.status, body: JSON.parse(answer.body) } })
            .toEqual({ request: `${method} ${spelling}`, answer: refusal });
        }
      }
    }
    expect(seen.length).toBe(writeRoutes.length * 15 * 2);
    expect(await databaseState()).toEqual(before);
    // The admin is still signed in: logout under no spelling ended the session.
    await request(t.http).get('/api/auth/me').set('Cookie', cookie).expect(200);
  });

  it('answers 404 to any other spelling of a route from the site itself: only one spelling exists', async () => {
    const before = await databaseState();
    for (const spelling of spellingsOf('/api/admin/clear-cache').filter((p) => !p.endsWith('/clear-cache/'))) {
      const answer = await raw(port, 'POST', spelling, { Authorization: `Bearer ${admin.token}`, 'Sec-Fetch-Site': 'same-origin' });
      expect({ spelling, status: answer.status }).toEqual({ spelling, status: 404 });
      expect({ spelling, body: answer.body.slice(0, 200) }).toEqual({ spelling, body: expect.stringMatching(/^\{/) });
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 404 });
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
    for (const spelling of ['/API/auth/logout', '/Api/auth/logout', '/api/AUTH/logout', '/%61pi/auth/logout']) {
      expect((await raw(port, 'POST', spelling, { Cookie: `access_token=${member.token}` })).status).toBe(404);
    }
    for (const spelling of ['/API/videos', '/Api/site', '/api/VIDEOS']) {
      expect((await raw(port, 'GET', spelling, {})).status).toBe(404);
    }
    expect(await databaseState()).toEqual(before);
    await request(t.http).get('/api/auth/me').set(bearer(member)).expect(200);
    // The one spelling works.
    await request(t.http).post('/api/admin/clear-cache').set(bearer(admin)).expect(200);
    await request(t.http).get('/api/videos').expect(200);
  });

  it('answers a sign-in on any spelling but its own with nothing to keep: no token, private, no-store', async () => {
    const answer = await raw(port, 'POST', '/API/auth/login', { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' }, JSON.stringify({ email: member.email, password: 'correct horse battery' }));
    expect(answer.status).toBe(404);
    expect(answer.body).not.toMatch(/accessToken/);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('private, no-store');
  });

  it('takes a multipart body only on the upload routes, spelled as they are', async () => {
    const { type, body } = multipart({ uploadPath: posterPath }, { name: 'file', filename: 'poster.png', type: 'image/png', bytes: PNG });
    for (const [spelling, status] of [['/API/admin/update-thumbnail', 404], ['/api/admin/UPDATE-THUMBNAIL', 415], ['/api/categories', 415]] as const) {
      const answer = await raw(port, 'POST', spelling, { Authorization: `Bearer ${admin.token}`, 'Content-Type': type }, body);
      expect({ spelling, status: answer.status }).toEqual({ spelling, status });
    }
  });
});
