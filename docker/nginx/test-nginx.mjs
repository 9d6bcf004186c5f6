#!/usr/bin/env node
// Checks docker/nginx/templates/default.conf.template without Docker: renders it the way the nginx image does
// (only ${MEDIA_SIGNING_KEY} is replaced), points it at a temporary media folder, web root and a stand-in API
// on loopback ports, runs `nginx -t`, then starts nginx in the foreground and checks signed media, thumbnails,
// the SPA fallback and the API micro-cache over HTTP. nginx is stopped before the script ends.
//
//   node docker/nginx/test-nginx.mjs          (needs an nginx binary with secure_link, e.g. Debian's nginx-light)
//
// Debian's nginx (1.22) lacks the upstream `resolve` parameter that nginx 1.27 has, and there is no Docker DNS
// here, so the api upstream becomes a plain loopback address for the test.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderNginxConfig } from './render-config.mjs';

const NGINX = process.env.NGINX_BIN ?? 'nginx';
const KEY = 'test-signing-key-0123456789';
const NGINX_PORT = Number(process.env.NGINX_TEST_PORT ?? 18080);
const API_PORT = Number(process.env.API_TEST_PORT ?? 13999);


const work = mkdtempSync(path.join(tmpdir(), 'nginx-test-'));
const media = path.join(work, 'media');
const html = path.join(work, 'html');

function write(file, content) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

// ---- fixtures ------------------------------------------------------------------------------------------------

const stemDir = '/videos/2024/06/pool-party/';
write(path.join(media, stemDir, 'index.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv0.m3u8\n');
write(path.join(media, stemDir, 'v0.m3u8'), '#EXTM3U\n#EXTINF:4.0,\nseg0.ts\n#EXT-X-ENDLIST\n');
write(path.join(media, stemDir, 'seg0.ts'), Buffer.alloc(10_000, 7));
write(path.join(media, stemDir, 'rendition.mp4'), Buffer.alloc(1_000, 1));
write(path.join(media, '/videos/2024/06/other/index.m3u8'), '#EXTM3U\n');
write(path.join(media, '/thumbs/2024/06/pool-party/poster.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
write(path.join(media, '/thumbs/2024/06/pool-party/storyboard.vtt'), 'WEBVTT\n');
write(path.join(media, '/originals/source.mp4'), 'never served');
write(path.join(html, 'index.html'), '<!doctype html><title>app shell</title>');
write(path.join(html, 'assets/index-abc123.js'), 'console.log(1)');
// The build's gzipped copy (frontend/vite.config.ts), different bytes so that the test can tell which was sent.
write(path.join(html, 'assets/index-abc123.js.gz'), gzipSync('console.log("the gzipped copy")'));

// ---- config ----------------------------------------------------------------------------------------------------

renderNginxConfig({ work, key: KEY, apiPort: API_PORT, nginxPort: NGINX_PORT, media, html });
// When run as root, nginx's workers run as nobody and must be able to read the fixtures.
spawnSync('chmod', ['-R', 'a+rX', work]);
chmodSync(work, 0o755);

// ---- stand-in API ----------------------------------------------------------------------------------------------

let apiHits = 0;
const api = http.createServer((req, res) => {
  apiHits++;
  // Media the edge's own store does not have comes to the API, which reads it where the video is placed (a video
  // moved by media:migrate) or answers 404, as backend/src/media/media-serving.ts does.
  if (req.url.startsWith('/thumbs/') || req.url.startsWith('/s/')) {
    const moved = /^\/(?:thumbs|s\/[^/]+\/videos)\/2024\/06\/moved\/(poster\.jpg|index\.m3u8)$/.exec(req.url);
    res.setHeader('Content-Type', moved ? (moved[1] === 'poster.jpg' ? 'image/jpeg' : 'application/vnd.apple.mpegurl') : 'application/json');
    res.statusCode = moved ? 200 : 404;
    res.end(moved ? `moved ${moved[1]} from the API` : JSON.stringify({ error: 'Not found', statusCode: 404 }));
    return;
  }
  if (!req.url.startsWith('/api/')) {
    // The app serves its pages with its own security headers (helmet), which nginx must pass on.
    res.setHeader('Content-Type', 'text/html');
    res.setHeader('Cache-Control', 'no-cache');
    // Other sites may frame the embeddable player only (backend/src/common/http/security-headers.ts).
    if (/^\/embed\/\d+$/.test(req.url)) {
      res.setHeader('Content-Security-Policy', "default-src 'self'; frame-ancestors *");
    } else {
      res.setHeader('Content-Security-Policy', "default-src 'self'; frame-ancestors 'self'");
      res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    }
    res.end(`<!doctype html><title>app shell</title><!-- from the API: ${req.url} -->`);
    return;
  }
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(
    JSON.stringify({
      hits: apiHits,
      url: req.url,
      host: req.headers.host,
      forwardedFor: req.headers['x-forwarded-for'],
      forwardedProto: req.headers['x-forwarded-proto'],
      acceptEncoding: req.headers['accept-encoding'] ?? null,
    }),
  );
});

// ---- checks ----------------------------------------------------------------------------------------------------

const base = `http://127.0.0.1:${NGINX_PORT}`;
const now = Math.floor(Date.now() / 1000);
const sign = (dir, expires) => createHash('md5').update(`${expires}${dir} ${KEY}`).digest('base64url');
const signed = (dir, file, expires = now + 3600, token = sign(dir, expires)) => `/s/${token},${expires}${dir}${file}`;

async function get(url, headers = {}) {
  const response = await fetch(base + url, { headers, redirect: 'manual' });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

/** The bytes as sent (fetch would inflate a gzipped body and hide its Content-Encoding). */
function rawGet(url, headers) {
  return new Promise((resolve, reject) => {
    http.get(base + url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const checks = [];
const check = (name, fn) => checks.push({ name, fn });

check('serves a signed master playlist as application/vnd.apple.mpegurl', async () => {
  const r = await get(signed(stemDir, 'index.m3u8'));
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/vnd.apple.mpegurl');
});

check('lets files named relatively by the playlist inherit the folder token', async () => {
  assert.equal((await get(signed(stemDir, 'v0.m3u8'))).status, 200);
  const segment = await get(signed(stemDir, 'seg0.ts'));
  assert.equal(segment.status, 200);
  assert.equal(segment.headers.get('content-type'), 'video/mp2t');
  const mp4 = await get(signed(stemDir, 'rendition.mp4'));
  assert.equal(mp4.headers.get('content-type'), 'video/mp4');
});

check('answers byte ranges', async () => {
  const r = await get(signed(stemDir, 'seg0.ts'), { Range: 'bytes=100-199' });
  assert.equal(r.status, 206);
  assert.equal(r.headers.get('content-range'), 'bytes 100-199/10000');
  assert.equal(r.body.length, 100);
});

check('refuses a tampered token with 403', async () => {
  const token = sign(stemDir, now + 3600);
  const tampered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
  assert.equal((await get(signed(stemDir, 'index.m3u8', now + 3600, tampered))).status, 403);
});

check("refuses a token used on another folder or a subfolder with 403", async () => {
  const token = sign(stemDir, now + 3600);
  assert.equal((await get(signed('/videos/2024/06/other/', 'index.m3u8', now + 3600, token))).status, 403);
  assert.equal((await get(signed(`${stemDir}sub/`, 'index.m3u8', now + 3600, token))).status, 403);
});

check('refuses a moved expiry with 403', async () => {
  const token = sign(stemDir, now + 3600);
  assert.equal((await get(signed(stemDir, 'index.m3u8', now + 7200, token))).status, 403);
});

check('answers an expired link with 410', async () => {
  assert.equal((await get(signed(stemDir, 'index.m3u8', now - 5))).status, 410);
});

check('does not let dot segments escape the signed folder', async () => {
  const token = sign(stemDir, now + 3600);
  assert.equal((await get(`/s/${token},${now + 3600}${stemDir}../other/index.m3u8`)).status, 403);
  const escape = '/videos/../originals/';
  assert.equal((await get(`/s/${sign(escape, now + 3600)},${now + 3600}/videos/%2e%2e/originals/source.mp4`)).status, 403);
});

check('never serves media unsigned', async () => {
  assert.equal((await get(`${stemDir}index.m3u8`)).status, 403);
  assert.equal((await get('/s/not-a-token/videos/a.ts')).status, 403);
});

check('serves thumbnails publicly with a long lifetime and the right types', async () => {
  const poster = await get('/thumbs/2024/06/pool-party/poster.jpg');
  assert.equal(poster.status, 200);
  assert.equal(poster.headers.get('content-type'), 'image/jpeg');
  assert.match(poster.headers.get('cache-control') ?? '', /public, max-age=2592000/);
  const vtt = await get('/thumbs/2024/06/pool-party/storyboard.vtt');
  assert.equal(vtt.headers.get('content-type'), 'text/vtt');
  assert.equal((await get('/thumbs/2024/06/none/poster.jpg')).status, 404);
});

check("asks the API for media its store does not have (a video moved to the other store), and passes on its 404", async () => {
  const poster = await get('/thumbs/2024/06/moved/poster.jpg');
  assert.equal(poster.status, 200);
  assert.equal(poster.body.toString(), 'moved poster.jpg from the API');
  const master = await get(signed('/videos/2024/06/moved/', 'index.m3u8'));
  assert.equal(master.status, 200);
  assert.equal(master.body.toString(), 'moved index.m3u8 from the API');
  assert.equal((await get(signed('/videos/2024/06/none/', 'index.m3u8'))).status, 404);
  // A bad token is the edge's own answer: the API is not asked.
  const hits = apiHits;
  assert.equal((await get(signed('/videos/2024/06/moved/', 'index.m3u8', now + 3600, sign('/videos/2024/06/other/', now + 3600)))).status, 403);
  assert.equal(apiHits, hits);
});

check("shows nginx's own counters on the stack's status port only, and never the API's metrics through the edge", async () => {
  const status = await new Promise((resolve, reject) => {
    http.get({ socketPath: path.join(work, 'nginx-status.sock'), path: '/nginx-status' }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    }).on('error', reject);
  });
  assert.equal(status.status, 200);
  assert.match(status.text, /^Active connections: \d+/);
  assert.doesNotMatch((await get('/nginx-status')).body.toString(), /Active connections/);
  const hits = apiHits;
  assert.equal((await get('/metrics')).status, 404);
  assert.equal(apiHits, hits);
});

check('takes every page from the app, with its security headers, but not missing assets', async () => {
  for (const url of ['/', '/video/12', '/index.html', '/admin']) {
    const page = await get(url);
    assert.equal(page.status, 200, url);
    assert.match(page.body.toString(), /app shell.*from the API/, url);
    assert.equal(page.headers.get('cache-control'), 'no-cache', url);
    assert.equal(page.headers.get('content-security-policy'), "default-src 'self'; frame-ancestors 'self'", url);
    assert.equal(page.headers.get('x-frame-options'), 'SAMEORIGIN', url);
  }
  const asset = await get('/assets/index-abc123.js');
  assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
  assert.equal((await get('/assets/missing.js')).status, 404);
  assert.doesNotMatch((await get('/originals/source.mp4')).body.toString(), /never served/);
});

check("passes on the API's leave to frame the embeddable player, and only that", async () => {
  const embed = await get('/embed/12');
  assert.equal(embed.status, 200);
  assert.match(embed.body.toString(), /from the API: \/embed\/12/);
  assert.equal(embed.headers.get('content-security-policy'), "default-src 'self'; frame-ancestors *");
  assert.equal(embed.headers.get('x-frame-options'), null);
});

check('proxies the API with the forwarding headers', async () => {
  const r = await get('/api/get-client-ip', { 'X-Forwarded-For': '203.0.113.9' });
  const body = JSON.parse(r.body.toString());
  assert.equal(body.url, '/api/get-client-ip');
  assert.equal(body.forwardedFor, '203.0.113.9, 127.0.0.1');
  assert.equal(body.forwardedProto, 'http');
  assert.equal(body.host, '127.0.0.1');
});

check("compresses for its clients itself: the API is asked for no encoding of its own", async () => {
  const r = await get('/api/get-client-ip', { 'Accept-Encoding': 'br, gzip' });
  assert.equal(JSON.parse(r.body.toString()).acceptEncoding, null);
});

check("sends a bundle's precompressed copy to clients that take gzip, the file to the others", async () => {
  const plain = await rawGet('/assets/index-abc123.js', {});
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.toString(), 'console.log(1)');
  const gz = await rawGet('/assets/index-abc123.js', { 'Accept-Encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.match(gz.headers['cache-control'] ?? '', /immutable/);
  assert.equal(gunzipSync(gz.body).toString(), 'console.log("the gzipped copy")');
});

check('micro-caches public catalogue reads for anonymous visitors only', async () => {
  for (const url of ['/api/videos?sort=trending', '/api/videos/7', '/api/categories', '/api/performers', '/api/site']) {
    const first = await get(url);
    const second = await get(url);
    assert.equal(first.headers.get('x-cache-status'), 'MISS', url);
    assert.equal(second.headers.get('x-cache-status'), 'HIT', url);
    assert.equal(second.body.toString(), first.body.toString(), url);
  }
  const bearer = await get('/api/videos?sort=trending', { Authorization: 'Bearer abc' });
  assert.equal(bearer.headers.get('x-cache-status'), 'BYPASS');
  const cookie = await get('/api/videos?sort=trending', { Cookie: 'theme=dark; access_token=abc' });
  assert.equal(cookie.headers.get('x-cache-status'), 'BYPASS');
  const otherCookie = await get('/api/videos?sort=trending', { Cookie: 'theme=dark' });
  assert.equal(otherCookie.headers.get('x-cache-status'), 'HIT');
});

check('does not cache other API calls', async () => {
  const a = await get('/api/video/secure?path=/videos/a/index.m3u8');
  const b = await get('/api/video/secure?path=/videos/a/index.m3u8');
  assert.equal(a.headers.get('x-cache-status'), null);
  assert.notEqual(JSON.parse(a.body.toString()).hits, JSON.parse(b.body.toString()).hits);
});

check('serves a stale copy while one request refreshes an expired entry', async () => {
  // Entries live 5 s at nginx's one-second clock resolution, so wait past 6 s.
  const first = JSON.parse((await get('/api/performers?stale=1')).body.toString());
  await new Promise((resolve) => setTimeout(resolve, 7_000));
  const stale = await get('/api/performers?stale=1');
  assert.equal(stale.headers.get('x-cache-status'), 'STALE');
  assert.equal(JSON.parse(stale.body.toString()).hits, first.hits);
});

// Last: it stops the stand-in API.
check('serves the static shell, framing refused, while the API is down', async () => {
  await new Promise((resolve) => api.close(resolve));
  api.closeAllConnections();
  const page = await get('/video/12');
  assert.equal(page.status, 200);
  assert.match(page.body.toString(), /app shell/);
  assert.doesNotMatch(page.body.toString(), /from the API/);
  assert.equal(page.headers.get('x-frame-options'), 'SAMEORIGIN');
  assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/);
  // The embeddable player's shell may still be framed by other sites; look-alike addresses may not.
  for (const url of ['/embed/12', '/embed/12?t=30']) {
    const embed = await get(url);
    assert.match(embed.body.toString(), /app shell/, url);
    assert.equal(embed.headers.get('x-frame-options'), null, url);
    assert.equal(embed.headers.get('content-security-policy'), "frame-ancestors *; object-src 'none'; base-uri 'self'", url);
  }
  for (const url of ['/embed/12/admin', '/embed/abc', '/embedded/12', '/admin?/embed/12']) {
    const other = await get(url);
    assert.equal(other.headers.get('x-frame-options'), 'SAMEORIGIN', url);
    assert.match(other.headers.get('content-security-policy') ?? '', /^frame-ancestors 'self';/, url);
  }
});

// ---- run -------------------------------------------------------------------------------------------------------

let nginx;
let failed = 0;
try {
  const syntax = spawnSync(NGINX, ['-t', '-q', '-c', path.join(work, 'nginx.conf'), '-e', path.join(work, 'error.log')], {
    encoding: 'utf8',
  });
  if (syntax.status !== 0) throw new Error(`nginx -t failed:\n${syntax.stderr}`);
  console.log('ok - nginx -t accepts the rendered config');

  await new Promise((resolve) => api.listen(API_PORT, '127.0.0.1', resolve));
  nginx = spawn(NGINX, ['-c', path.join(work, 'nginx.conf'), '-e', path.join(work, 'error.log'), '-g', 'daemon off;'], {
    stdio: 'inherit',
  });
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/nginx-health`);
      break;
    } catch (error) {
      if (i > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  for (const { name, fn } of checks) {
    try {
      await fn();
      console.log(`ok - ${name}`);
    } catch (error) {
      failed++;
      console.log(`not ok - ${name}\n  ${String(error?.message ?? error).replaceAll('\n', '\n  ')}`);
    }
  }
} catch (error) {
  failed++;
  console.error(String(error?.message ?? error));
} finally {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx.once('exit', resolve));
    nginx.kill('SIGQUIT');
    await exited;
  }
  api.close();
  rmSync(work, { recursive: true, force: true });
}

console.log(failed ? `${failed} failed` : `all ${checks.length + 1} checks passed`);
process.exitCode = failed ? 1 : 0;
