import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { signedPath } from '../src/media/signing';
import { insertVideo } from './helpers/factories';
import { createTestApp, TestApp } from './helpers/test-app';

const KEY = 'media-test-signing-key';

describe('Signed streaming and media serving (e2e)', () => {
  let t: TestApp;
  let dir: string;
  let media: string;
  const segment = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256));

  const put = (relative: string, content: string | Buffer) => {
    const file = path.join(media, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'serving-'));
    media = path.join(dir, 'media');
    t = await createTestApp({ MEDIA_DIR: media, MEDIA_SIGNING_KEY: KEY });
    await insertVideo(t.db, { url: '/2024/06/pool-party.mp4', duration: 3600 });
    await insertVideo(t.db, { url: '/2024/06/short-one.mp4', duration: 30 });
    await insertVideo(t.db, { url: '/2024/06/not-yet.mp4', status: 'processing' });
    put('videos/2024/06/pool-party/index.m3u8', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv0.m3u8\n');
    put('videos/2024/06/pool-party/v0.m3u8', '#EXTM3U\n#EXTINF:4.0,\nseg0.ts\n#EXT-X-ENDLIST\n');
    put('videos/2024/06/pool-party/seg0.ts', segment);
    put('videos/2024/06/pool-party/rendition.mp4', segment);
    put('videos/2024/06/other/index.m3u8', '#EXTM3U\n');
    put('thumbs/2024/06/pool-party/poster.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    put('thumbs/2024/06/pool-party/storyboard.vtt', 'WEBVTT\n');
    put('sources/upload.mp4', 'never served');
    mkdirSync(path.join(dir, 'outside'));
    writeFileSync(path.join(dir, 'outside', 'secret.jpg'), 'secret');
    symlinkSync(path.join(dir, 'outside'), path.join(media, 'thumbs', 'escape'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const secure = async (streamPath: string) =>
    (await request(t.http).get('/api/video/secure').query({ path: streamPath }).expect(200)).body as { secureUrl: string; expiresAt: string };

  describe('GET /api/video/secure', () => {
    it('signs the stream folder for max(2 h, 3 × duration)', async () => {
      const before = Date.now();
      const long = await secure('/videos/2024/06/pool-party/index.m3u8');
      expect(long.secureUrl).toMatch(/^\/s\/[A-Za-z0-9_-]{22},\d+\/videos\/2024\/06\/pool-party\/index\.m3u8$/);
      const expires = Number(/,(\d+)\//.exec(long.secureUrl)?.[1]);
      expect(new Date(long.expiresAt).getTime()).toBe(expires * 1000);
      expect(expires * 1000 - before).toBeGreaterThanOrEqual(3 * 3600 * 1000 - 2000);
      expect(expires * 1000 - before).toBeLessThanOrEqual(3 * 3600 * 1000 + 2000);
      const short = await secure('/videos/2024/06/short-one/index.m3u8');
      const shortExpires = Number(/,(\d+)\//.exec(short.secureUrl)?.[1]);
      expect(shortExpires * 1000 - before).toBeGreaterThanOrEqual(2 * 3600 * 1000 - 2000);
      expect(shortExpires * 1000 - before).toBeLessThanOrEqual(2 * 3600 * 1000 + 2000);
    });

    it.each([
      ['/thumbs/2024/06/pool-party/index.m3u8'],
      ['/videos/../etc/index.m3u8'],
      ['/videos/2024/../../x/index.m3u8'],
      ['/videos/2024/06/pool-party/seg0.ts'],
      ['videos/2024/06/pool-party/index.m3u8'],
      ['/videos//index.m3u8'],
    ])('answers 400 for the path %j', async (p) => {
      const res = await request(t.http).get('/api/video/secure').query({ path: p }).expect(400);
      expect(res.body).toEqual({ error: 'path must be a stream path: /videos/{stem}/index.m3u8', statusCode: 400 });
    });

    it('answers 400 without a path and 404 for an unknown or unpublished video', async () => {
      await request(t.http).get('/api/video/secure').expect(400);
      for (const p of ['/videos/2024/06/nobody/index.m3u8', '/videos/2024/06/not-yet/index.m3u8']) {
        const res = await request(t.http).get('/api/video/secure').query({ path: p }).expect(404);
        expect(res.body).toEqual({ error: 'Video not found', statusCode: 404 });
      }
    });
  });

  describe('GET /s/{token},{expires}/videos/{stem}/{file}', () => {
    it('serves every file of the signed folder with its content type', async () => {
      const { secureUrl } = await secure('/videos/2024/06/pool-party/index.m3u8');
      const master = await request(t.http).get(secureUrl).expect(200);
      expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl');
      expect(master.text).toContain('v0.m3u8');
      const folder = secureUrl.slice(0, secureUrl.lastIndexOf('/') + 1);
      expect((await request(t.http).get(`${folder}v0.m3u8`).expect(200)).headers['content-type']).toBe('application/vnd.apple.mpegurl');
      const seg = await request(t.http).get(`${folder}seg0.ts`).buffer(true).parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      }).expect(200);
      expect(seg.headers['content-type']).toBe('video/mp2t');
      expect(Buffer.compare(seg.body as Buffer, segment)).toBe(0);
      // A segment never changes under its name; a playlist may be written again (as nginx says too).
      expect([seg.headers['cache-control'], master.headers['cache-control']]).toEqual(['private, max-age=31536000, immutable', 'private, max-age=10']);
      expect((await request(t.http).get(`${folder}rendition.mp4`).expect(200)).headers['content-type']).toBe('video/mp4');
      expect(master.headers['access-control-allow-origin']).toBe('*');
    });

    it('answers byte ranges', async () => {
      const { secureUrl } = await secure('/videos/2024/06/pool-party/index.m3u8');
      const folder = secureUrl.slice(0, secureUrl.lastIndexOf('/') + 1);
      const res = await request(t.http).get(`${folder}seg0.ts`).set('Range', 'bytes=100-199').expect(206);
      expect(res.headers['content-range']).toBe(`bytes 100-199/${segment.length}`);
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(Number(res.headers['content-length'])).toBe(100);
    });

    it('answers 416 with the size for a range past the end of the file, as nginx does', async () => {
      const { secureUrl } = await secure('/videos/2024/06/pool-party/index.m3u8');
      const folder = secureUrl.slice(0, secureUrl.lastIndexOf('/') + 1);
      for (const range of [`bytes=${segment.length}-`, `bytes=${segment.length + 100}-${segment.length + 200}`]) {
        const res = await request(t.http).get(`${folder}seg0.ts`).set('Range', range).expect(416);
        expect(res.headers['content-range']).toBe(`bytes */${segment.length}`);
        expect(res.body).toEqual({ error: 'Range not satisfiable', statusCode: 416 });
      }
      const poster = await request(t.http).get('/thumbs/2024/06/pool-party/poster.jpg').set('Range', 'bytes=999999-').expect(416);
      expect(poster.body).toEqual({ error: 'Range not satisfiable', statusCode: 416 });
    });

    it('answers 403 for a tampered token, another folder or a subfolder, and for no token at all', async () => {
      const { secureUrl } = await secure('/videos/2024/06/pool-party/index.m3u8');
      const [, token, expires] = /^\/s\/([^,]+),(\d+)\//.exec(secureUrl) as RegExpExecArray;
      const tampered = `${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`;
      for (const url of [
        `/s/${tampered},${expires}/videos/2024/06/pool-party/index.m3u8`,
        `/s/${token},${Number(expires) + 1}/videos/2024/06/pool-party/index.m3u8`,
        `/s/${token},${expires}/videos/2024/06/other/index.m3u8`,
        `/s/${token},${expires}/videos/2024/06/pool-party/sub/index.m3u8`,
        `/s/${token},${expires}/videos/2024/06/pool-party/%2e%2e/other/index.m3u8`,
        `/s/${token},${expires}/sources/upload.mp4`,
        '/s/videos/2024/06/pool-party/index.m3u8',
      ]) {
        const res = await request(t.http).get(url);
        expect({ url, status: res.status }).toEqual({ url, status: 403 });
      }
      await request(t.http).get('/videos/2024/06/pool-party/index.m3u8').expect((res) => expect(res.text).not.toContain('#EXTM3U'));
    });

    it('answers 410 once expired, and 403 when an expired link is also tampered with', async () => {
      const past = Math.floor(Date.now() / 1000) - 10;
      const expired = signedPath('/videos/2024/06/pool-party/', 'index.m3u8', past, KEY);
      const res = await request(t.http).get(expired).expect(410);
      expect(res.body).toEqual({ error: 'This media link has expired', statusCode: 410 });
      const forged = signedPath('/videos/2024/06/pool-party/', 'index.m3u8', past, 'not-the-key-000000');
      await request(t.http).get(forged).expect(403);
    });

    it('answers 404 for a file the signed folder does not have', async () => {
      const { secureUrl } = await secure('/videos/2024/06/pool-party/index.m3u8');
      await request(t.http).get(secureUrl.replace('index.m3u8', 'missing.ts')).expect(404);
      await request(t.http).get(secureUrl.replace('index.m3u8', 'notes.txt')).expect(404);
    });
  });

  describe('GET /thumbs/...', () => {
    it('serves images and storyboards publicly with long cache lifetimes', async () => {
      const poster = await request(t.http).get('/thumbs/2024/06/pool-party/poster.jpg').expect(200);
      expect(poster.headers['content-type']).toBe('image/jpeg');
      expect(poster.headers['cache-control']).toBe('public, max-age=2592000');
      expect(poster.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const vtt = await request(t.http).get('/thumbs/2024/06/pool-party/storyboard.vtt').expect(200);
      expect(vtt.headers['content-type']).toMatch(/^text\/vtt/);
    });

    it('answers 404 for missing files, traversal and symlinks out of the store', async () => {
      for (const url of ['/thumbs/2024/06/nope.jpg', '/thumbs/../sources/upload.mp4', '/thumbs/%2e%2e/sources/upload.mp4', '/thumbs/escape/secret.jpg']) {
        const res = await request(t.http).get(url);
        expect({ url, status: res.status }).toEqual({ url, status: 404 });
        expect(res.text).not.toContain('secret');
      }
    });
  });
});
