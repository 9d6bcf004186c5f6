import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { FfmpegRunner, ffmpegPath, ffprobePath } from '../src/media/ffmpeg.runner';
import { ImageVariants } from '../src/media/image-variants';
import { bearer, createTestApp, registerAdmin, TestApp, TestUser } from './helpers/test-app';
import { binary } from './helpers/binary';

/** A real picture made by ffmpeg (a test pattern) of the given size and type. */
function picture(file: string, width: number, height: number): Buffer {
  mkdirSync(path.dirname(file), { recursive: true });
  execFileSync(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=${width}x${height}`, '-frames:v', '1', file]);
  return readFileSync(file);
}

let probeCount = 0;
/** What ffprobe reads in the bytes (from a file: it cannot size a WebP from a pipe). */
const sizeOf = (bytes: Buffer): { width: number; height: number; codec_name: string } => {
  const file = path.join(tmpdir(), `image-copies-probe-${process.pid}-${probeCount++}`);
  writeFileSync(file, bytes);
  try {
    const out = execFileSync(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_entries', 'stream=width,height,codec_name', file]);
    return JSON.parse(out.toString()).streams[0];
  } finally {
    rmSync(file, { force: true });
  }
};

describe('WebP copies of the stored images (e2e, real ffmpeg)', () => {
  let t: TestApp;
  let dir: string;
  let thumbs: string;
  let admin: TestUser;
  let runs: ReturnType<typeof vi.spyOn>;
  const get = (url: string) => request(t.http).get(url).buffer(true).parse(binary);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'image-copies-'));
    thumbs = path.join(dir, 'media', 'thumbs');
    picture(path.join(thumbs, 'a/poster.jpg'), 1280, 720);
    picture(path.join(thumbs, 'a/small.png'), 200, 120);
    picture(path.join(thumbs, 'a/sprite-0.jpg'), 1600, 900);
    for (let i = 0; i < 10; i++) picture(path.join(thumbs, `many/p${i}.jpg`), 640, 360);
    writeFileSync(path.join(thumbs, 'a/broken.jpg'), Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]));
    mkdirSync(path.join(dir, 'outside'));
    picture(path.join(dir, 'outside/secret.jpg'), 64, 64);
    symlinkSync(path.join(dir, 'outside'), path.join(thumbs, 'escape'));
    t = await createTestApp({ MEDIA_DIR: path.join(dir, 'media'), INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
    runs = vi.spyOn(t.app.get(FfmpegRunner), 'run');
  });
  afterEach(() => runs.mockClear());
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a missing copy on its first request, at the width asked, then serves it from disk', async () => {
    expect(existsSync(path.join(thumbs, 'a/poster.jpg.320w.webp'))).toBe(false);
    const first = await get('/thumbs/a/poster.jpg.320w.webp').expect(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(first.headers['cache-control']).toBe('public, max-age=2592000');
    expect(first.body.subarray(0, 4).toString()).toBe('RIFF');
    expect(first.body.subarray(8, 12).toString()).toBe('WEBP');
    expect(sizeOf(first.body)).toEqual({ codec_name: 'webp', width: 320, height: 180 });
    // Far lighter than the JPEG it came from.
    expect(first.body.length).toBeLessThan(statSync(path.join(thumbs, 'a/poster.jpg')).size / 4);
    expect(readFileSync(path.join(thumbs, 'a/poster.jpg.320w.webp')).equals(first.body)).toBe(true);
    expect(runs).toHaveBeenCalledTimes(1);

    const second = await get('/thumbs/a/poster.jpg.320w.webp').expect(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(runs).toHaveBeenCalledTimes(1);
    // No temporary file is left beside it.
    expect(readdirSync(path.join(thumbs, 'a')).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('never makes a copy wider than its original, and keeps a sprite at its own size', async () => {
    expect(sizeOf((await get('/thumbs/a/small.png.1280w.webp').expect(200)).body)).toEqual({ codec_name: 'webp', width: 200, height: 120 });
    expect(sizeOf((await get('/thumbs/a/sprite-0.jpg.webp').expect(200)).body)).toEqual({ codec_name: 'webp', width: 1600, height: 900 });
  });

  it('makes one copy however many ask for it at once', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => get('/thumbs/a/poster.jpg.640w.webp')));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.toString('hex'))).size).toBe(1);
    expect(runs).toHaveBeenCalledTimes(1);
  });

  it('sends an original it cannot convert as it is, for an hour, and does not try it again', async () => {
    const original = readFileSync(path.join(thumbs, 'a/broken.jpg'));
    const res = await get('/thumbs/a/broken.jpg.640w.webp').expect(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body.equals(original)).toBe(true);
    await get('/thumbs/a/broken.jpg.640w.webp').expect(200);
    expect(runs).toHaveBeenCalledTimes(1);
    expect(existsSync(path.join(thumbs, 'a/broken.jpg.640w.webp'))).toBe(false);
  });

  it.each([
    ['a width that is not made', '/thumbs/a/poster.jpg.500w.webp'],
    ['a missing original', '/thumbs/a/nothing.jpg.320w.webp'],
    ['an original behind a link out of the store', '/thumbs/escape/secret.jpg.320w.webp'],
    ['a path out of the store', '/thumbs/a/..%2F..%2Foutside/secret.jpg.320w.webp'],
    ['a copy of a copy', '/thumbs/a/poster.jpg.320w.webp.320w.webp'],
  ])('answers 404 for %s, making nothing', async (_what, url) => {
    const res = await request(t.http).get(url).expect(404);
    expect(res.body).toEqual({ error: 'Not found', statusCode: 404 });
    expect(runs).not.toHaveBeenCalled();
    expect(readdirSync(path.join(dir, 'outside'))).toEqual(['secret.jpg']);
  });

  it('answers 503 with Retry-After when too many copies are asked for at once, and makes them later', async () => {
    const images = t.app.get(ImageVariants).withLimits({ concurrency: 1, queue: 1 });
    try {
      const urls = Array.from({ length: 10 }, (_, i) => `/thumbs/many/p${i}.jpg.320w.webp`);
      const answers = await Promise.all(urls.map((u) => get(u)));
      const busy = answers.filter((a) => a.status === 503);
      expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy[0].headers['retry-after']).toBe('5');
      expect(JSON.parse(busy[0].body.toString())).toEqual({ error: 'Too many images are being prepared; try again shortly', statusCode: 503 });
      for (const u of urls) expect(sizeOf((await get(u).expect(200)).body).width).toBe(320);
    } finally {
      images.withLimits({ concurrency: 2, queue: 64 });
    }
  });

  describe('a thumbnail upload', () => {
    const upload = (uploadPath: string, bytes: Buffer) =>
      request(t.http).post('/api/admin/update-thumbnail').set(bearer(admin)).attach('file', bytes, { filename: 'x.jpg', contentType: 'image/jpeg' }).field('uploadPath', uploadPath);

    it('makes the new image’s copies at once, replacing the old ones', async () => {
      await get('/thumbs/a/poster.jpg.320w.webp').expect(200);
      const wider = picture(path.join(dir, 'new.jpg'), 1920, 800);
      await upload('/thumbs/a/poster.jpg', wider).expect(200);
      for (const width of [320, 640, 960, 1280]) {
        const copy = readFileSync(path.join(thumbs, `a/poster.jpg.${width}w.webp`));
        expect(sizeOf(copy)).toEqual({ codec_name: 'webp', width, height: Math.round((width * 800) / 1920 / 2) * 2 });
      }
    });

    it('removes the old copies when the new image cannot be converted, so that they never show the old picture', async () => {
      await get('/thumbs/a/small.png.320w.webp').expect(200);
      const unreadable = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 9)]);
      await upload('/thumbs/a/small.png', unreadable).expect(200);
      expect(readdirSync(path.join(thumbs, 'a')).filter((f) => f.startsWith('small.png.'))).toEqual([]);
      expect((await get('/thumbs/a/small.png.320w.webp').expect(200)).body.equals(unreadable)).toBe(true);
    });

    it('refuses a path that names a copy (400), writing nothing', async () => {
      const before = readFileSync(path.join(thumbs, 'a/poster.jpg.640w.webp'));
      const res = await upload('/thumbs/a/poster.jpg.640w.webp', picture(path.join(dir, 'other.jpg'), 100, 100)).expect(400);
      expect(res.body).toEqual({
        error: 'uploadPath names a WebP copy that the site makes itself: upload the original image instead',
        statusCode: 400,
      });
      expect(readFileSync(path.join(thumbs, 'a/poster.jpg.640w.webp')).equals(before)).toBe(true);
    });
  });
});
