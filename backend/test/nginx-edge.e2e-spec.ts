import { PutObjectCommand } from '@aws-sdk/client-s3';
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { renderNginxConfig } from '../../docker/nginx/render-config.mjs';
import type { S3Settings } from '../src/config/app-config';
import { ffmpegPath } from '../src/media/ffmpeg.runner';
import { signedPath } from '../src/media/signing';
import { S3MediaStore } from '../src/media/store/s3-media-store';
import type { MediaStore } from '../src/media/store/media-store';
import { StorageService } from '../src/media/storage.service';
import { MediaPlacements } from '../src/media/media-placements.service';
import { dropBucket, s3Env, testS3Settings } from './helpers/s3';
import { standInWeb, type StandInWeb } from './helpers/stand-in-web';
import { TcpProxy } from './helpers/tcp-proxy';
import { testClip } from './helpers/clips';
import { bearer, createTestApp, registerAdmin, type TestApp, waitForJob } from './helpers/test-app';
import { chromium } from 'playwright-core';
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import request from 'supertest';
import { ffprobePath } from '../src/media/ffmpeg.runner';
import { freePort } from '../bench/free-port';

/**
 * The stack's nginx with MEDIA_STORE=s3 (issue #32, point 3): the media token checked as on disk, then the object
 * fetched from the bucket (a real Ceph RGW, through a TCP proxy this test cuts) into a cache keyed on the
 * object, not the token; ranges answered from the copy; stale copies served while the bucket is out of reach.
 */
const KEY = 'nginx-edge-signing-key-0123';
const FOLDER = '/videos/2024/06/pool-party/';

describe('nginx as the edge in front of an S3 bucket (e2e, real nginx, real Ceph RGW)', () => {
  let settings: S3Settings;
  let bucket: S3MediaStore;
  let proxy: TcpProxy;
  let t: TestApp;
  let web: StandInWeb;
  let work: string;
  let nginx: ChildProcess;
  let base: string;
  const segment = randomBytes(200_000);
  const signed = (file: string, expires = Math.floor(Date.now() / 1000) + 3600) => `${base}${signedPath(FOLDER, file, expires, KEY)}`;
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers });
    return { status: res.status, cache: res.headers.get('x-cache-status'), headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    if (spawnSync('nginx', ['-v']).error) throw new Error('nginx is not installed: apt-get install nginx-light (.ci/run does)');
    settings = testS3Settings();
    bucket = new S3MediaStore(settings);
    await bucket.prepareBucket();
    await bucket.write(`${FOLDER.slice(1)}index.m3u8`, '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n240p.m3u8\n');
    await bucket.write(`${FOLDER.slice(1)}240p.m3u8`, '#EXTM3U\n#EXTINF:4.0,\n240p_000.ts\n#EXT-X-ENDLIST\n');
    await bucket.write(`${FOLDER.slice(1)}240p_000.ts`, segment);
    await bucket.write(`${FOLDER.slice(1)}240p_001.ts`, segment.subarray(0, 1000));
    // An object whose copy at the edge is stale after a second.
    await bucket.client.send(
      new PutObjectCommand({ Bucket: settings.bucket, Key: `${FOLDER.slice(1)}short.m3u8`, Body: '#EXTM3U\n', CacheControl: 'public, max-age=1', ContentType: 'application/vnd.apple.mpegurl' }),
    );
    const poster = execFileSync(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=blue:size=320x180', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', '-']);
    await bucket.write('thumbs/2024/06/pool-party/poster.jpg', poster);
    await bucket.write('sources/2024/06/pool-party.mp4', 'the source');

    proxy = await TcpProxy.to(settings.endpoint);
    work = mkdtempSync(path.join(tmpdir(), 'nginx-edge-'));
    web = standInWeb();
    const apiPort = await freePort();
    const nginxPort = await freePort();
    // The API makes missing WebP copies in the bucket (nginx sends those misses to it).
    t = await createTestApp({ DATA_DIR: work, MEDIA_DIR: path.join(work, 'media'), MEDIA_SIGNING_KEY: KEY, ...s3Env(settings) }, { webRoot: web.webRoot });
    await t.app.listen(apiPort, '127.0.0.1');
    const conf = renderNginxConfig({
      work, key: KEY, apiPort, nginxPort, media: path.join(work, 'media'), html: web.webRoot,
      store: 's3', s3: { host: `127.0.0.1:${proxy.port}`, bucket: settings.bucket, prefix: '' },
    });
    spawnSync('chmod', ['-R', 'a+rX', work, path.dirname(web.webRoot)]);
    chmodSync(work, 0o755);
    execFileSync('nginx', ['-t', '-q', '-c', conf, '-e', path.join(work, 'error.log')]);
    nginx = spawn('nginx', ['-c', conf, '-e', path.join(work, 'error.log'), '-g', 'daemon off;'], { stdio: 'inherit' });
    base = `http://127.0.0.1:${nginxPort}`;
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${base}/nginx-health`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);

  afterAll(async () => {
    nginx?.kill('SIGQUIT');
    await t?.close();
    await proxy?.cut();
    if (settings) await dropBucket(settings);
    bucket?.client.destroy();
    web?.remove();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('fetches a signed object from the bucket once, then serves every viewer the cached copy, whatever their token', async () => {
    const first = await get(signed('240p_000.ts'));
    expect([first.status, first.cache, first.headers.get('content-type')]).toEqual([200, 'MISS', 'video/mp2t']);
    expect(first.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(first.body.equals(segment)).toBe(true);
    // Another viewer, another token and expiry: the same copy.
    const second = await get(signed('240p_000.ts', Math.floor(Date.now() / 1000) + 7200));
    expect([second.status, second.cache]).toEqual([200, 'HIT']);
    expect(second.body.equals(segment)).toBe(true);
    // Nothing of the bucket's own headers reaches the viewer.
    expect([...second.headers.keys()].filter((name) => name.startsWith('x-amz') || name.startsWith('x-rgw'))).toEqual([]);

    const master = await get(signed('index.m3u8'));
    expect([master.status, master.headers.get('content-type'), master.headers.get('cache-control')]).toEqual([200, 'application/vnd.apple.mpegurl', 'private, max-age=10']);
    expect(master.body.toString()).toContain('240p.m3u8');
  });

  it('answers byte ranges from the cached copy', async () => {
    await get(signed('240p_001.ts'));
    const part = await get(signed('240p_001.ts'), { Range: 'bytes=100-199' });
    expect([part.status, part.cache, part.headers.get('content-range')]).toEqual([206, 'HIT', 'bytes 100-199/1000']);
    expect(part.body.equals(segment.subarray(100, 200))).toBe(true);
    const cold = await get(signed('240p.m3u8'), { Range: 'bytes=0-6' });
    expect([cold.status, cold.body.toString()]).toEqual([206, '#EXTM3U']);
  });

  it('checks the token before the bucket: 403 tampered or unsigned, 410 expired, 404 for an object the bucket lacks', async () => {
    const good = signed('index.m3u8');
    const [, token] = /\/s\/([^,]+),/.exec(good) as RegExpExecArray;
    expect((await get(good.replace(token, `${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`))).status).toBe(403);
    expect((await get(signed('index.m3u8', Math.floor(Date.now() / 1000) - 5))).status).toBe(410);
    expect((await get(`${base}${FOLDER}index.m3u8`)).status).toBe(403);
    expect((await get(signed('240p_999.ts'))).status).toBe(404);
    // The sources are the bucket's private folder: no address of the edge reaches them (`..` leaves /thumbs/ for
    // the web client's pages, and an encoded one is refused).
    for (const attempt of ['/thumbs/../sources/2024/06/pool-party.mp4', '/thumbs/%2e%2e/sources/2024/06/pool-party.mp4', '/sources/2024/06/pool-party.mp4']) {
      const answer = await get(`${base}${attempt}`);
      expect(answer.body.toString()).not.toContain('the source');
    }
  });

  it('has the API serve a video moved to the disk (media:migrate), which the bucket no longer has', async () => {
    const moved = '/videos/2024/06/moved-home/';
    const master = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n240p.m3u8\n';
    const disk = t.app.get(StorageService).store.storeFor('disk') as MediaStore;
    await disk.write(`${moved.slice(1)}index.m3u8`, master);
    await disk.write('thumbs/2024/06/moved-home/poster.jpg', 'a poster on disk');
    await t.app.get(MediaPlacements).place(['2024/06/moved-home'], 'disk');
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const stream = await get(`${base}${signedPath(moved, 'index.m3u8', expires, KEY)}`);
    expect([stream.status, stream.body.toString(), stream.headers.get('content-type')]).toEqual([200, master, 'application/vnd.apple.mpegurl']);
    const poster = await get(`${base}/thumbs/2024/06/moved-home/poster.jpg`);
    expect([poster.status, poster.body.toString()]).toEqual([200, 'a poster on disk']);
    // A bad token is still the edge's 403, and a file neither store has is the API's 404.
    expect((await get(`${base}${signedPath(moved, 'index.m3u8', expires, 'another-key')}`)).status).toBe(403);
    expect((await get(`${base}${signedPath(moved, '240p.m3u8', expires, KEY)}`)).status).toBe(404);
  });

  it('serves images from the bucket through the cache, and has the API make a missing WebP copy there', async () => {
    const poster = await get(`${base}/thumbs/2024/06/pool-party/poster.jpg`);
    expect([poster.status, poster.cache, poster.headers.get('content-type')]).toEqual([200, 'MISS', 'image/jpeg']);
    expect(poster.headers.get('cache-control')).toBe('public, max-age=2592000, stale-while-revalidate=86400');
    expect((await get(`${base}/thumbs/2024/06/pool-party/poster.jpg`)).cache).toBe('HIT');
    const copy = await get(`${base}/thumbs/2024/06/pool-party/poster.jpg.320w.webp`);
    expect([copy.status, copy.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect(copy.body.subarray(8, 12).toString()).toBe('WEBP');
    expect(await bucket.stat('thumbs/2024/06/pool-party/poster.jpg.320w.webp')).not.toBeNull();
    expect((await get(`${base}/thumbs/2024/06/pool-party/none.jpg`)).status).toBe(404);
  });

  it('keeps serving what it has while the bucket cannot be reached, stale copies included, and 503 for the rest', async () => {
    expect((await get(signed('short.m3u8'))).cache).toBe('MISS');
    // Past its second (nginx counts its copies' lifetimes in whole seconds).
    await new Promise((r) => setTimeout(r, 2500));
    await proxy.cut();
    try {
      const cached = await get(signed('240p_000.ts'));
      expect([cached.status, cached.cache]).toEqual([200, 'HIT']);
      expect(cached.body.equals(segment)).toBe(true);
      const stale = await get(signed('short.m3u8'));
      expect([stale.status, stale.cache, stale.body.toString()]).toEqual([200, 'STALE', '#EXTM3U\n']);
      const never = await get(signed('never-fetched.ts'));
      expect([never.status, never.headers.get('retry-after')]).toEqual([503, '5']);
    } finally {
      await proxy.restore();
    }
    expect((await get(signed('short.m3u8'))).status).toBe(200);
  }, 60_000);
  describe('an encrypted video in the bucket', () => {
    const CLIP_SECONDS = 6;
    /** The video's signed folder at the edge: `http://127.0.0.1:{nginx}/s/{token},{expires}/videos/{stem}/`. */
    let folderUrl: string;
    let stem: string;
    let keyId: string;

    beforeAll(async () => {
      const clip = path.join(work, 'clip.mp4');
      testClip(clip, { seconds: CLIP_SECONDS });
      const admin = await registerAdmin(t);
      const upload = await request(t.app.getHttpServer()).post('/api/admin/videos').set(bearer(admin)).field('title', 'Sealed At The Edge').attach('file', clip).expect(202);
      expect(await waitForJob(t, upload.body.job_id)).toMatchObject({ state: 'done', error: null });
      const video = (await request(t.app.getHttpServer()).get(`/api/videos/${upload.body.id}`).expect(200)).body as { stream_path: string };
      const { secureUrl } = (await request(t.app.getHttpServer()).get('/api/video/secure').query({ path: video.stream_path }).expect(200)).body as { secureUrl: string };
      stem = video.stream_path.slice('/videos/'.length, -'/index.m3u8'.length);
      folderUrl = `${base}${secureUrl.slice(0, -'index.m3u8'.length)}`;
      keyId = /URI="([0-9a-f]{16})\.key"/.exec((await bucket.readBytes(`videos/${stem}/240p.m3u8`)).toString())?.[1] as string;
    }, 180_000);

    it('answers its key from the API through the edge, never from the bucket nor a cache', async () => {
      const first = await get(`${folderUrl}${keyId}.key`);
      expect([first.status, first.body.length, first.headers.get('cache-control'), first.cache]).toEqual([200, 16, 'private, no-store', null]);
      expect((await get(`${folderUrl}${keyId}.key`)).cache).toBeNull();
      expect(await bucket.stat(`videos/${stem}/${keyId}.key`)).toBeNull();
      // The token is checked for the key as for the rest of the folder.
      const [, token] = /\/s\/([^,]+),/.exec(folderUrl) as RegExpExecArray;
      expect((await get(`${folderUrl.replace(token, 'AAAAAAAAAAAAAAAAAAAAAA')}${keyId}.key`)).status).toBe(403);
      // Its segments are the bucket's, sealed, through the edge's cache.
      const segmentName = `240p_000-${keyId}.ts`;
      const segment = await get(`${folderUrl}${segmentName}`);
      expect([segment.status, segment.cache]).toEqual([200, 'MISS']);
      expect(segment.body[0] === 0x47 && segment.body[188] === 0x47).toBe(false);
    });

    it('plays in ffmpeg through the edge, every frame decoded', async () => {
      const played = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(ffprobePath(), ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames', '-of', 'json', `${folderUrl}index.m3u8`], { encoding: 'utf8' },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })),
      );
      expect([played.code, played.stderr]).toEqual([0, '']);
      expect(Number(JSON.parse(played.stdout).streams[0].nb_read_frames)).toBe(CLIP_SECONDS * 30);
    }, 60_000);

    it('plays in hls.js and in Shaka Player in Chromium, through the edge', async () => {
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
      try {
        const page = await browser.newPage();
        // An http origin (the edge's own), as a player page has.
        await page.goto(`${base}/nginx-health`);
        const resolve = createRequire(__filename).resolve;
        await page.addScriptTag({ path: resolve('hls.js/dist/hls.min.js') });
        await page.addScriptTag({ path: resolve('shaka-player/dist/shaka-player.compiled.js') });
        await page.addScriptTag({ path: path.join(__dirname, 'fixtures', 'play-encrypted.js') });
        const played = (await page.evaluate(`playEncrypted(${JSON.stringify(`${folderUrl}index.m3u8`)})`)) as { player: string; time: number; width: number; keys: number; errors: string[] }[];
        for (const result of played) {
          expect(result, result.player).toMatchObject({ errors: [] });
          expect(result.time, result.player).toBeGreaterThanOrEqual(2);
          expect(result.width, result.player).toBeGreaterThan(0);
          expect(result.keys, result.player).toBeGreaterThanOrEqual(1);
        }
        expect(played.map((p) => p.player)).toEqual(['hls.js', 'Shaka Player']);
      } finally {
        await browser.close();
      }
    }, 120_000);
  });
});
