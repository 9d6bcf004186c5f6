import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
// @ts-expect-error -- a plain ES module shared with docker/nginx/test-nginx.mjs, without type declarations
import { renderNginxConfig } from '../../docker/nginx/render-config.mjs';
import request from 'supertest';
import { ffmpegPath } from '../src/media/ffmpeg.runner';
import { signedPath } from '../src/media/signing';
import { insertVideo } from './helpers/factories';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * The container stack's nginx configuration (docker/nginx/templates/default.conf.template) on Debian's nginx, in
 * front of the real app: the app signs, nginx `secure_link` checks. Needs an nginx with secure_link on the PATH
 * (`apt-get install nginx-light`; .ci/run installs it).
 */
const KEY = 'nginx-test-signing-key-0123';
const repo = path.resolve(__dirname, '../..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('nginx in front of the app (e2e, real nginx)', () => {
  let t: TestApp;
  let work: string;
  let media: string;
  let nginx: ChildProcess;
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
    const html = path.join(work, 'html');
    put('videos/2024/06/pool-party/index.m3u8', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n240p.m3u8\n');
    put('videos/2024/06/pool-party/240p.m3u8', '#EXTM3U\n#EXTINF:4.0,\n240p_000.ts\n#EXT-X-ENDLIST\n');
    put('videos/2024/06/pool-party/240p_000.ts', segment);
    put('videos/2024/06/other/index.m3u8', '#EXTM3U\n');
    put('thumbs/2024/06/pool-party/poster.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    mkdirSync(html, { recursive: true });
    writeFileSync(path.join(html, 'index.html'), '<!doctype html><title>app shell</title><div id="root"></div>');

    const apiPort = await freePort();
    const nginxPort = await freePort();
    // The API serves the same web build as nginx's root, as the stack's image does.
    t = await createTestApp({ MEDIA_DIR: media, MEDIA_SIGNING_KEY: KEY, TRUST_PROXY: 'loopback' }, { webRoot: html });
    await t.app.listen(apiPort, '127.0.0.1');
    await insertVideo(t.db, { url: '/2024/06/pool-party.mp4', duration: 60 });

    // Rendered as the nginx image renders its templates, with the upstream and paths pointed at this test.
    const conf = renderNginxConfig({ work, key: KEY, apiPort, nginxPort, media, html });
    spawnSync('chmod', ['-R', 'a+rX', work]);
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
  });

  it('accepts the URL the app signs, for every file of the folder, with content types and ranges', async () => {
    const secure = await fetch(`${base}/api/video/secure?path=${encodeURIComponent('/videos/2024/06/pool-party/index.m3u8')}`);
    expect(secure.status).toBe(200);
    const { secureUrl } = (await secure.json()) as { secureUrl: string };
    const master = await fetch(`${base}${secureUrl}`);
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(await master.text()).toContain('240p.m3u8');
    const folder = secureUrl.slice(0, secureUrl.lastIndexOf('/') + 1);
    expect((await fetch(`${base}${folder}240p.m3u8`)).status).toBe(200);
    const seg = await fetch(`${base}${folder}240p_000.ts`);
    expect(seg.headers.get('content-type')).toBe('video/mp2t');
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
      // The API's page: the shell with the page's own head and the bootstrap block.
      const text = await viaNginx.text();
      expect(text).toContain('<div id="root"></div>');
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

  it('logs what was served, not who asked or what they searched for, with the request id the API logs too', async () => {
    const res = await fetch(`${base}/api/videos?q=very-private-search&limit=1`, {
      headers: { 'User-Agent': 'Secret-Agent/1.0', 'X-Forwarded-For': '198.51.100.77', Referer: 'http://elsewhere.example/page' },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    let log = '';
    for (let i = 0; i < 50 && !log.includes(requestId as string); i++) {
      await new Promise((r) => setTimeout(r, 100));
      log = readFileSync(path.join(work, 'access.log'), 'utf8');
    }
    const line = log.split('\n').find((l) => l.includes(requestId as string)) as string;
    expect(line).toMatch(/^\S+ "GET \/api\/videos" 200 \d+ [\d.]+ [0-9a-f]{32}$/);
    for (const secret of ['very-private-search', 'Secret-Agent', '198.51.100.77', '127.0.0.1', 'elsewhere.example']) {
      expect(log).not.toContain(secret);
    }
  });
});
