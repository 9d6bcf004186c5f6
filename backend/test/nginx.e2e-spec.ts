import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { renderNginxConfig } from '../../docker/nginx/render-config.mjs';
import request from 'supertest';
import { ffmpegPath } from '../src/media/ffmpeg.runner';
import { signedPath } from '../src/media/signing';
import { insertVideo } from './helpers/factories';
import { standInWeb, type StandInWeb } from './helpers/stand-in-web';
import { createTestApp, registerUser, TestApp } from './helpers/test-app';
import { freePort } from '../bench/free-port';

/**
 * The container stack's nginx configuration (docker/nginx/templates/default.conf.template) on Debian's nginx, in
 * front of the real app: the app signs, nginx `secure_link` checks. Needs an nginx with secure_link on the PATH
 * (`apt-get install nginx-light`; .ci/run installs it).
 */
const KEY = 'nginx-test-signing-key-0123';
const repo = path.resolve(__dirname, '../..');

describe('nginx in front of the app (e2e, real nginx)', () => {
  let t: TestApp;
  let work: string;
  let media: string;
  let nginx: ChildProcess;
  let web: StandInWeb;
  let base: string;
  const segment = Buffer.alloc(10_000, 7);

  const put = (relative: string, content: string | Buffer) => {
    const file = path.join(media, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  };

  beforeAll(async () => {
    if (spawnSync('nginx', ['-v']).error) throw new Error('nginx is not installed: apt-get install nginx-light (.ci/run does)');
    work = mkdtempSync(path.join(tmpdir(), 'nginx-'));
    media = path.join(work, 'media');
    // The API's pages as its render module writes them: a stand-in that writes the bootstrap block it is handed.
    web = standInWeb();
    const html = web.webRoot;
    put('videos/2024/06/pool-party/index.m3u8', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n240p.m3u8\n');
    put('videos/2024/06/pool-party/240p.m3u8', '#EXTM3U\n#EXTINF:4.0,\n240p_000.ts\n#EXT-X-ENDLIST\n');
    put('videos/2024/06/pool-party/240p_000.ts', segment);
    put('videos/2024/06/other/index.m3u8', '#EXTM3U\n');
    put('thumbs/2024/06/pool-party/poster.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));

    const apiPort = await freePort();
    const nginxPort = await freePort();
    // The API serves the same web build as nginx's root, as the stack's image does.
    t = await createTestApp({ MEDIA_DIR: media, MEDIA_SIGNING_KEY: KEY, TRUST_PROXY: 'loopback' }, { webRoot: html });
    await t.app.listen(apiPort, '127.0.0.1');
    await insertVideo(t.db, { url: '/2024/06/pool-party.mp4', duration: 60 });

    // Rendered as the nginx image renders its templates, with the upstream and paths pointed at this test.
    const conf = renderNginxConfig({ work, key: KEY, apiPort, nginxPort, media, html });
    spawnSync('chmod', ['-R', 'a+rX', work, path.dirname(html)]);
    chmodSync(work, 0o755);
    execFileSync('nginx', ['-t', '-q', '-c', conf, '-e', path.join(work, 'error.log')]);
    nginx = spawn('nginx', ['-c', conf, '-e', path.join(work, 'error.log'), '-g', 'daemon off;'], { stdio: 'inherit' });
    base = `http://127.0.0.1:${nginxPort}`;
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${base}/`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    nginx?.kill('SIGQUIT');
    await t?.close();
    rmSync(work, { recursive: true, force: true });
    web?.remove();
  });

  it('accepts the URL the app signs, for every file of the folder, with content types and ranges', async () => {
    const secure = await fetch(`${base}/api/video/secure?path=${encodeURIComponent('/videos/2024/06/pool-party/index.m3u8')}`);
    expect(secure.status).toBe(200);
    const { secureUrl } = (await secure.json()) as { secureUrl: string };
    const master = await fetch(`${base}${secureUrl}`);
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(master.headers.get('cache-control')).toBe('private, max-age=10');
    expect(await master.text()).toContain('240p.m3u8');
    const folder = secureUrl.slice(0, secureUrl.lastIndexOf('/') + 1);
    expect((await fetch(`${base}${folder}240p.m3u8`)).status).toBe(200);
    const seg = await fetch(`${base}${folder}240p_000.ts`);
    expect(seg.headers.get('content-type')).toBe('video/mp2t');
    expect(seg.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(Buffer.compare(Buffer.from(await seg.arrayBuffer()), segment)).toBe(0);
    const range = await fetch(`${base}${folder}240p_000.ts`, { headers: { Range: 'bytes=100-199' } });
    expect(range.status).toBe(206);
    expect((await range.arrayBuffer()).byteLength).toBe(100);
  });

  it('refuses a tampered token, another folder and a moved expiry with 403, an expired link with 410', async () => {
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const good = signedPath('/videos/2024/06/pool-party/', 'index.m3u8', expires, KEY);
    const [, token] = /^\/s\/([^,]+),/.exec(good) as RegExpExecArray;
    const tampered = good.replace(token, `${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`);
    expect((await fetch(`${base}${good}`)).status).toBe(200);
    expect((await fetch(`${base}${tampered}`)).status).toBe(403);
    expect((await fetch(`${base}${good.replace('/pool-party/', '/other/')}`)).status).toBe(403);
    expect((await fetch(`${base}${good.replace(`,${expires}`, `,${expires + 60}`)}`)).status).toBe(403);
    const expired = signedPath('/videos/2024/06/pool-party/', 'index.m3u8', Math.floor(Date.now() / 1000) - 5, KEY);
    expect((await fetch(`${base}${expired}`)).status).toBe(410);
    expect((await fetch(`${base}/videos/2024/06/pool-party/index.m3u8`)).status).toBe(403);
  });

  it('passes the stack checks of docker/nginx/test-nginx.mjs: web client fallback, micro-cache, stale copies', async () => {
    const [nginxPort, apiPort] = [await freePort(), await freePort()];
    const run = spawnSync(process.execPath, [path.join(repo, 'docker/nginx/test-nginx.mjs')], {
      env: { ...process.env, NGINX_TEST_PORT: String(nginxPort), API_TEST_PORT: String(apiPort) },
      encoding: 'utf8',
    });
    expect({ status: run.status, output: run.stdout + run.stderr }).toEqual({ status: 0, output: expect.stringMatching(/all \d+ checks passed/) });
  }, 60_000);

  it("gives every page the API's own security policy: CSP, framing, opener (no framing of the admin panel)", async () => {
    const policy = (r: Response) =>
      Object.fromEntries(['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy'].map((h) => [h, r.headers.get(h)]));
    const direct = await request(t.http).get('/admin').expect(200);
    expect(direct.headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);
    for (const page of ['/', '/admin', '/video/1-pool-party', '/index.html']) {
      const viaNginx = await fetch(`${base}${page}`);
      expect(viaNginx.status).toBe(200);
      // The API's page: its document, with the page's own head and the bootstrap block.
      const text = await viaNginx.text();
      expect(text).toContain('<div id="root">');
      expect(text).toContain('<script type="application/json" id="bootstrap">');
      expect(policy(viaNginx)).toEqual({
        'content-security-policy': direct.headers['content-security-policy'],
        'x-frame-options': 'SAMEORIGIN',
        'cross-origin-opener-policy': direct.headers['cross-origin-opener-policy'],
      });
    }
    // The embeddable player alone may be framed by any site, through nginx as from the API.
    const embed = await request(t.http).get('/embed/1').expect(200);
    expect(embed.headers['content-security-policy']).toMatch(/frame-ancestors \*/);
    const embedViaNginx = await fetch(`${base}/embed/1`);
    expect(embedViaNginx.status).toBe(200);
    expect(policy(embedViaNginx)).toEqual({
      'content-security-policy': embed.headers['content-security-policy'],
      'x-frame-options': null,
      'cross-origin-opener-policy': embed.headers['cross-origin-opener-policy'],
    });
  });

  it("never lets a shared cache hand one member's answers to another (two members through nginx)", async () => {
    const viaNginx = (url: string, init: RequestInit = {}) =>
      fetch(`${base}${url}`, { ...init, headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) } });
    const members = [];
    for (const name of ['Ann', 'Bob']) {
      const email = `${name.toLowerCase()}.${Date.now()}@example.com`;
      const res = await viaNginx('/api/auth/register', { method: 'POST', body: JSON.stringify({ email, password: 'correct horse battery', displayName: name }) });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { accessToken: string; user: { id: string } };
      members.push({ token: body.accessToken, id: body.user.id, cookie: /access_token=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] ?? '' });
    }
    const [ann, bob] = members;
    const videoId = await insertVideo(t.db, { title: "Ann's pick" });
    const bookmark = await viaNginx('/api/video/add-to-bookmarks', {
      method: 'POST',
      headers: { Authorization: `Bearer ${ann.token}` },
      body: JSON.stringify({ videoId, userId: ann.id, action: 'create' }),
    });
    expect(bookmark.status).toBe(200);
    for (const auth of [(m: typeof ann) => ({ Authorization: `Bearer ${m.token}` }), (m: typeof ann) => ({ Cookie: m.cookie })]) {
      for (let i = 0; i < 2; i++) {
        const annList = await viaNginx('/api/me/bookmarks', { headers: auth(ann) });
        const bobList = await viaNginx('/api/me/bookmarks', { headers: auth(bob) });
        expect(((await annList.json()) as { data: { id: number }[] }).data.map((v) => v.id)).toEqual([videoId]);
        expect(((await bobList.json()) as { data: unknown[] }).data).toEqual([]);
        for (const res of [annList, bobList]) {
          expect(res.headers.get('cache-control')).toBe('private, no-store');
          expect(res.headers.get('x-cache-status')).not.toBe('HIT');
        }
      }
    }
    // Nor through the cached catalogue routes: a signed-in request neither reads nor fills the micro-cache.
    const me = await viaNginx('/api/auth/me', { headers: { Authorization: `Bearer ${ann.token}` } });
    expect(me.headers.get('cache-control')).toBe('private, no-store');
  });

  it('serves thumbnails publicly and the API through the proxy with the client address it forwards', async () => {
    const poster = await fetch(`${base}/thumbs/2024/06/pool-party/poster.jpg`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    // A WebP copy that is not on disk yet: nginx asks the API, which makes it from the original; then it is on disk.
    execFileSync(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720', '-frames:v', '1', path.join(media, 'thumbs/2024/06/pool-party/cover.jpg')]);
    spawnSync('chmod', ['-R', 'a+rX', path.join(media, 'thumbs')]);
    const copyPath = '/thumbs/2024/06/pool-party/cover.jpg.320w.webp';
    const made = await fetch(`${base}${copyPath}`);
    expect(made.status).toBe(200);
    expect(made.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await made.arrayBuffer());
    expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
    expect(readFileSync(path.join(media, copyPath)).equals(bytes)).toBe(true);
    const fromDisk = await fetch(`${base}${copyPath}`);
    expect(fromDisk.headers.get('cache-control')).toBe('public, max-age=2592000, stale-while-revalidate=86400');
    expect(Buffer.from(await fromDisk.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await fetch(`${base}/thumbs/2024/06/pool-party/none.jpg.320w.webp`)).status).toBe(404);
    const ip = await fetch(`${base}/api/get-client-ip`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    // nginx appends its peer to X-Forwarded-For. Here that peer is on loopback, which the app trusts like the proxy
    // itself, so the address this client claims is taken; in the stack only nginx's own subnet is trusted.
    expect(await ip.json()).toEqual({ ip: '203.0.113.9' });
  });

  it("keeps a guest's page a few seconds, never a member's, with the API's own headers", async () => {
    const member = await registerUser(t.http, { displayName: 'Cached Carla' });
    for (const page of ['/', '/video/1']) {
      const first = await fetch(`${base}${page}?guest-cache=1`);
      const second = await fetch(`${base}${page}?guest-cache=1`);
      expect([first.status, second.status]).toEqual([200, 200]);
      // The API's no-cache reaches the browser, which revalidates; nginx keeps the page for the next guest.
      expect(first.headers.get('cache-control')).toBe('no-cache');
      expect([first.headers.get('x-cache-status'), second.headers.get('x-cache-status')]).toEqual(['MISS', 'HIT']);
      expect(second.headers.get('set-cookie')).toBeNull();
      const guestText = await second.text();
      expect(guestText).toBe(await first.text());
      expect(guestText).not.toContain('Cached Carla');
      for (const headers of <Record<string, string>[]>[{ Authorization: `Bearer ${member.token}` }, { Cookie: `age_confirmed=true; access_token=${member.token}` }]) {
        const mine = await fetch(`${base}${page}?guest-cache=1`, { headers });
        expect(mine.headers.get('x-cache-status')).toBe('BYPASS');
        expect(mine.headers.get('cache-control')).toBe('private, no-store');
        expect(await mine.text()).toContain('Cached Carla');
      }
      // The member's page filled nothing: the guests' copy is still the guests'.
      const after = await fetch(`${base}${page}?guest-cache=1`);
      expect(after.headers.get('x-cache-status')).toBe('HIT');
      expect(await after.text()).toBe(guestText);
    }
  });

  it('logs what was served, not who asked or what they searched for, with the request ids the API logs too', async () => {
    const res = await fetch(`${base}/api/videos?q=very-private-search&limit=1`, {
      headers: { 'User-Agent': 'Secret-Agent/1.0', 'X-Forwarded-For': '198.51.100.77', Referer: 'http://elsewhere.example/page' },
    });
    expect(res.status).toBe(200);
    // The API's own id (it never takes one a client or proxy sends for its own: request-log.ts).
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    let log = '';
    for (let i = 0; i < 50 && !log.includes(requestId as string); i++) {
      await new Promise((r) => setTimeout(r, 100));
      log = readFileSync(path.join(work, 'access.log'), 'utf8');
    }
    const line = log.split('\n').find((l) => l.includes(requestId as string)) as string;
    expect(line).toMatch(new RegExp(`^\\S+ "GET /api/videos" 200 \\d+ [\\d.]+ [0-9a-f]{32} ${requestId}$`));
    for (const secret of ['very-private-search', 'Secret-Agent', '198.51.100.77', '127.0.0.1', 'elsewhere.example']) {
      expect(log).not.toContain(secret);
    }
  });
});

/**
 * The read limits and the guests' page cache of the same template, against a stand-in API that says what it was
 * asked (and by whom), so that each rule can be seen to hold or break. Clients come from their own loopback
 * addresses (127.0.0.0/8 is all local), one per test, so that one test's budget never spends another's.
 */
describe("nginx's read limits and guests' page cache (e2e, real nginx, stand-in API)", () => {
  const template = readFileSync(path.join(repo, 'docker/nginx/templates/default.conf.template'), 'utf8');
  /** A zone's rate (per second) and the burst its locations allow, as the template says. */
  const limitOf = (zone: string) => {
    const rate = new RegExp(`limit_req_zone \\$\\w+ zone=${zone}:\\S+ rate=(\\d+)r/s;`).exec(template);
    const bursts = [...template.matchAll(new RegExp(`limit_req zone=${zone} burst=(\\d+) nodelay;`, 'g'))].map((m) => Number(m[1]));
    if (!rate || !bursts.length || bursts.some((b) => b !== bursts[0])) throw new Error(`no single limit for ${zone} in the template`);
    return { rate: Number(rate[1]), burst: bursts[0] };
  };
  const pages = limitOf('page_reads');
  const reads = limitOf('api_reads');
  const TOO_MANY = { error: 'Too many requests, please try again later', statusCode: 429 };

  let work: string;
  let nginx: ChildProcess;
  let standIn: http.Server;
  let port: number;
  let signedSegment: string;
  /** What the stand-in API was asked, by path and query. */
  const asked = new Map<string, number>();
  const agents = new Map<string, http.Agent>();
  let nextAddress = 10;
  /** A loopback address no other test has used: a client with a full budget. */
  const newClient = () => `127.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 2}`;
  let nextPage = 0;
  /** A page address no other request has used: no cache entry yet. */
  const newPage = (name = 'page') => `/${name}-${++nextPage}`;

  interface Answer {
    status: number;
    headers: http.IncomingHttpHeaders;
    text: string;
  }
  const call = (url: string, { from = '127.0.0.1', method = 'GET', headers = {} }: { from?: string; method?: string; headers?: Record<string, string> } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      let agent = agents.get(from);
      if (!agent) agents.set(from, (agent = new http.Agent({ keepAlive: true, maxSockets: 8, localAddress: from })));
      const req = http.request({ host: '127.0.0.1', port, path: url, method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode as number, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end();
    });
  /** What the stand-in said it served: its count of that address, and what it saw of the visitor. */
  const served = (a: Answer) => JSON.parse(a.text) as { n: number; url: string; host: string; cookie: string | null; member: boolean };
  const cacheStatus = (a: Answer) => a.headers['x-cache-status'];

  /** Requests from one client until the first refusal, which it returns, once it has seen the burst pass and little more. */
  const exhaust = async (from: string, url: (i: number) => string, { rate, burst }: { rate: number; burst: number }) => {
    const started = Date.now();
    for (let i = 0; i < burst + 200; i++) {
      const answer = await call(url(i), { from });
      if (answer.status === 429) {
        const seconds = (Date.now() - started) / 1000;
        // nodelay: the burst and the request itself pass at once, then the budget refills at the rate.
        expect(i).toBeGreaterThanOrEqual(burst + 1);
        expect(i).toBeLessThanOrEqual(burst + 2 + Math.ceil(seconds * rate));
        return answer;
      }
      expect(answer.status).toBe(200);
    }
    throw new Error(`${url(0)}: never refused`);
  };
  /** A client that has spent its budget asks again: refused (the budget refills meanwhile, so a few tries). */
  const refusedAgain = async (from: string, url: string) => {
    let answer = await call(url, { from });
    for (let i = 0; i < 5 && answer.status !== 429; i++) answer = await call(url, { from });
    return answer;
  };

  beforeAll(async () => {
    if (spawnSync('nginx', ['-v']).error) throw new Error('nginx is not installed: apt-get install nginx-light (.ci/run does)');
    work = mkdtempSync(path.join(tmpdir(), 'nginx-reads-'));
    const media = path.join(work, 'media');
    const html = path.join(work, 'html');
    for (const [file, content] of [
      [path.join(media, 'videos/2024/06/pool-party/240p_000.ts'), Buffer.alloc(2_000, 7)],
      [path.join(media, 'thumbs/2024/06/pool-party/poster.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9])],
      [path.join(html, 'index.html'), '<!doctype html><title>app shell</title>'],
      [path.join(html, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>'],
      [path.join(html, 'assets/index-abc123.js'), 'console.log(1)'],
    ] as const) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
    signedSegment = signedPath('/videos/2024/06/pool-party/', '240p_000.ts', Math.floor(Date.now() / 1000) + 3600, KEY);

    // Pages: a guest's `no-cache`, a member's (session cookie or bearer) `private, no-store`, as the API answers;
    // /private is `private` for anyone, /sets-cookie sets one; ?delay=ms answers that much later.
    standIn = http.createServer((req, res) => {
      const url = new URL(req.url as string, 'http://stand-in');
      const n = (asked.get(req.url as string) ?? 0) + 1;
      asked.set(req.url as string, n);
      const cookie = req.headers.cookie ?? null;
      const member = !!req.headers.authorization || /(?:^|;\s*)(?:__Host-)?access_token=/.test(cookie ?? '');
      const page = !url.pathname.startsWith('/api/');
      res.setHeader('Content-Type', page ? 'text/html' : 'application/json');
      if (page) res.setHeader('Cache-Control', member || url.pathname === '/private' ? 'private, no-store' : 'no-cache');
      else res.setHeader('Cache-Control', 'private, no-store');
      if (url.pathname === '/sets-cookie') res.setHeader('Set-Cookie', 'theme=dark; Path=/');
      const body = JSON.stringify({ n, url: req.url, host: req.headers.host, cookie, member });
      setTimeout(() => res.end(body), Number(url.searchParams.get('delay') ?? 0));
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    port = await freePort();
    const conf = renderNginxConfig({ work, key: KEY, apiPort: (standIn.address() as { port: number }).port, nginxPort: port, media, html });
    spawnSync('chmod', ['-R', 'a+rX', work]);
    chmodSync(work, 0o755);
    execFileSync('nginx', ['-t', '-q', '-c', conf, '-e', path.join(work, 'error.log')]);
    nginx = spawn('nginx', ['-c', conf, '-e', path.join(work, 'error.log'), '-g', 'daemon off;'], { stdio: 'inherit' });
    for (let i = 0; i < 100; i++) {
      if (await call('/nginx-health').then((r) => r.status === 200, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    for (const agent of agents.values()) agent.destroy();
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    standIn?.closeAllConnections();
    await new Promise((resolve) => standIn?.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  it('answers API reads past the burst with 429, Retry-After and the contract body, per client address', async () => {
    const client = newClient();
    // Cache-busting reads, as in the audit, through every API location: one budget for them all (the micro-cached
    // catalogue counted before the cache is looked up), or far more would pass before the first refusal.
    const reading = ['/api/videos?q=bust-', '/api/me/history?page=', '/api/admin/videos?page=', '/api/video/secure?path=/videos/a/index.m3u8&i=', '/api/export.txt?i='];
    const refused = await exhaust(client, (i) => `${reading[i % reading.length]}${i}`, reads);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['content-type']).toBe('application/json');
    expect(JSON.parse(refused.text)).toEqual(TOO_MANY);
    for (const url of reading) {
      const again = await refusedAgain(client, `${url}again`);
      expect({ url, status: again.status, retryAfter: again.headers['retry-after'], type: again.headers['content-type'], body: JSON.parse(again.text) }).toEqual({
        url, status: 429, retryAfter: '1', type: 'application/json', body: TOO_MANY,
      });
    }
    // Another address (another visitor) is not held back.
    const neighbour = await call('/api/videos?q=bust-0', { from: newClient() });
    expect(neighbour.status).toBe(200);
    // Writes are left to the API's own limits.
    const write = await call('/api/videos/1/view', { from: client, method: 'POST' });
    expect(write.status).toBe(200);
    expect(served(write).url).toBe('/api/videos/1/view');
    // The budget refills at the rate: a second later the client may read again.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await call('/api/site', { from: client })).status).toBe(200);
  });

  it('answers pages past the burst with 429 and Retry-After, per client address, apart from the API budget', async () => {
    const client = newClient();
    // Every page counts, whatever its address, cached or not.
    const pageUrls = ['/?x=', '/video/12?t=', '/search?q=', '/index.html?v=', '/no-such-page-', '/embed/12.txt?v='];
    const refused = await exhaust(client, (i) => `${pageUrls[i % pageUrls.length]}${i}`, pages);
    expect(refused.status).toBe(429);
    for (const url of pageUrls) {
      const again = await refusedAgain(client, `${url}again`);
      expect({
        url,
        status: again.status,
        retryAfter: again.headers['retry-after'],
        type: again.headers['content-type'],
        cacheControl: again.headers['cache-control'],
        text: again.text,
      }).toEqual({ url, status: 429, retryAfter: '1', type: 'text/html', cacheControl: 'no-store', text: expect.stringMatching(/Too many requests/) });
    }
    expect((await call('/?x=0', { from: newClient() })).status).toBe(200);
    // The pages' budget is not the API's.
    expect((await call('/api/site', { from: client })).status).toBe(200);
  });

  it('never limits media, thumbnails, the web client files, the health checks, robots.txt or the sitemaps', async () => {
    const client = newClient();
    // Spend both read budgets first: what follows must still be served to this client.
    await exhaust(client, (i) => `/?spent=${i}`, pages);
    await exhaust(client, (i) => `/api/videos?spent=${i}`, reads);
    const many = Math.max(pages.burst, reads.burst) + 30;
    for (const url of [signedSegment, '/thumbs/2024/06/pool-party/poster.jpg', '/assets/index-abc123.js', '/favicon.svg', '/api/health', '/nginx-health', '/robots.txt', '/sitemaps/videos-1.xml']) {
      const statuses = new Map<number, number>();
      for (let i = 0; i < many; i++) {
        const { status } = await call(url, { from: client });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      expect({ url, statuses: Object.fromEntries(statuses) }).toEqual({ url, statuses: { 200: many } });
    }
  });

  it("serves a guest's page from the cache on the next request, for a few seconds", async () => {
    const from = newClient();
    const url = newPage();
    const first = await call(url, { from });
    const second = await call(url, { from });
    const third = await call(url, { from: newClient(), headers: { Cookie: 'theme=dark; _ga=GA1.2.3' } });
    expect([first, second, third].map(cacheStatus)).toEqual(['MISS', 'HIT', 'HIT']);
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
    expect(asked.get(url)).toBe(1);
    // The API's no-cache still reaches the browser, which revalidates with nginx.
    expect(second.headers['cache-control']).toBe('no-cache');
    // Another query string is another page.
    expect(cacheStatus(await call(`${url}?x=1`, { from }))).toBe('MISS');
  });

  it('neither reads nor fills the page cache with a session cookie (either name) or an Authorization header', async () => {
    const identities: Record<string, string>[] = [
      { Cookie: 'access_token=abc' },
      { Cookie: 'theme=dark; access_token=abc; age_confirmed=true' },
      { Cookie: '__Host-access_token=abc' },
      { Cookie: 'age_confirmed=true; __Host-access_token=abc' },
      { Authorization: 'Bearer abc' },
      { Authorization: 'Bearer abc', Cookie: 'age_confirmed=true' },
    ];
    for (const headers of identities) {
      const from = newClient();
      // A guest's copy is there: the member does not get it.
      const filled = newPage();
      await call(filled, { from });
      expect(cacheStatus(await call(filled, { from }))).toBe('HIT');
      const mine = await call(filled, { from, headers });
      expect({ headers, status: cacheStatus(mine), member: served(mine).member, n: served(mine).n }).toEqual({ headers, status: 'BYPASS', member: true, n: 2 });
      // The member's page fills nothing: the next guest does not get it.
      const fresh = newPage();
      const member = await call(fresh, { from, headers });
      expect(cacheStatus(member)).toBe('BYPASS');
      const guest = await call(fresh, { from });
      expect({ headers, status: cacheStatus(guest), member: served(guest).member }).toEqual({ headers, status: 'MISS', member: false });
      // Nor does it for the age-confirmed guest's entry when the member had the gate cookie.
      const confirmed = await call(fresh, { from, headers: { Cookie: 'age_confirmed=true' } });
      expect(served(confirmed).member).toBe(false);
    }
  });

  it("keys a page by the host and by the age gate's answer, and skips the cache for odd spellings of the gate cookie", async () => {
    const from = newClient();
    const url = newPage();
    const variants: Record<string, string>[] = [
      {},
      { Cookie: 'age_confirmed=true' },
      { Cookie: 'age_confirmed=false' },
      { Host: 'other-brand.example' },
      { Host: 'other-brand.example', Cookie: 'theme=dark; age_confirmed=true' },
    ];
    const firsts = [];
    for (const headers of variants) {
      const first = await call(url, { from, headers });
      expect({ headers, status: cacheStatus(first) }).toEqual({ headers, status: 'MISS' });
      firsts.push(served(first));
    }
    expect(firsts.map((f) => f.n)).toEqual([1, 2, 3, 4, 5]);
    for (const [i, headers] of variants.entries()) {
      const again = await call(url, { from, headers });
      expect({ headers, status: cacheStatus(again), served: served(again) }).toEqual({ headers, status: 'HIT', served: firsts[i] });
    }
    expect(firsts[3].host).toBe('other-brand.example');
    // The gate cookie spelled so that nginx and the API could read it differently: no cache either way.
    for (const cookie of ['AGE_CONFIRMED=true', 'age_confirmed =true', 'age_confirmed=false; age_confirmed=true', 'x=1;age_confirmed=true; Age_Confirmed=false']) {
      const odd = await call(url, { from, headers: { Cookie: cookie } });
      expect({ cookie, status: cacheStatus(odd) }).toEqual({ cookie, status: 'BYPASS' });
    }
    expect(cacheStatus(await call(url, { from }))).toBe('HIT');
  });

  it('never keeps an answer that sets a cookie or is private, even to a guest', async () => {
    const from = newClient();
    for (const url of ['/sets-cookie', '/private']) {
      const first = await call(url, { from });
      const second = await call(url, { from });
      expect({ url, statuses: [first, second].map(cacheStatus), asked: asked.get(url) }).toEqual({ url, statuses: ['MISS', 'MISS'], asked: 2 });
    }
    expect((await call('/sets-cookie', { from })).headers['set-cookie']).toEqual(['theme=dark; Path=/']);
  });

  it('lets one request fill or refresh an entry while the others wait or get the previous copy', async () => {
    const from = newClient();
    const url = `${newPage()}?delay=400`;
    // A cold entry: one request goes to the API, the others wait for it (proxy_cache_lock).
    const cold = await Promise.all(Array.from({ length: 5 }, () => call(url, { from })));
    expect(asked.get(url)).toBe(1);
    expect(cold.map(cacheStatus).sort()).toEqual(['HIT', 'HIT', 'HIT', 'HIT', 'MISS']);
    // Entries live 5 s at nginx's one-second clock: past 6 s the entry has expired.
    await new Promise((r) => setTimeout(r, 6_500));
    const refresher = call(url, { from });
    await new Promise((r) => setTimeout(r, 100));
    const others = await Promise.all(Array.from({ length: 4 }, () => call(url, { from })));
    expect(others.map(cacheStatus)).toEqual(['UPDATING', 'UPDATING', 'UPDATING', 'UPDATING']);
    expect(others.map((o) => served(o).n)).toEqual([1, 1, 1, 1]);
    const refreshed = await refresher;
    expect(cacheStatus(refreshed)).toBe('EXPIRED');
    expect(served(refreshed).n).toBe(2);
    expect(asked.get(url)).toBe(2);
    const next = await call(url, { from });
    expect([cacheStatus(next), served(next).n]).toEqual(['HIT', 2]);
  }, 20_000);
});
