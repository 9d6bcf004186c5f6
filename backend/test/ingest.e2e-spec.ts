import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { ffmpegPath, ffprobePath } from '../src/media/ffmpeg.runner';
import { testClip } from './helpers/clips';
import { bearer, createTestApp, registerAdmin, registerUser, settledVideoStatus, TestApp, TestUser, waitForJob } from './helpers/test-app';

const ffprobeJson = (args: string[]) => JSON.parse(execFileSync(ffprobePath(), ['-v', 'error', '-print_format', 'json', ...args]).toString());

/**
 * Sends a multipart upload over a plain socket and reads the answer even when the server answers (and stops
 * reading) before the body is all sent, which supertest reports as EPIPE instead of the status.
 */
function uploadRawTo(server: Server, headers: Record<string, string>, title: string, file: Buffer): Promise<{ status: number; body: string }> {
  const boundary = `----test${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${title}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.mp4"\r\nContent-Type: video/mp4\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const listening = server.listening ? server : server.listen(0, '127.0.0.1');
    const go = () => {
      const { port } = listening.address() as AddressInfo;
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/api/admin/videos', method: 'POST', headers: { ...headers, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      });
      req.end(body);
    };
    if (listening.listening) go();
    else listening.once('listening', go);
  });
}

describe('Video upload and ingest (e2e, real ffmpeg)', () => {
  let t: TestApp;
  let dir: string;
  let media: string;
  let clip: string;
  let admin: TestUser;
  let member: TestUser;
  const CLIP_SECONDS = 9;

  const uploadRaw = (headers: Record<string, string>, title: string, file: Buffer) => uploadRawTo(t.app.getHttpServer() as Server, headers, title, file);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ingest-'));
    media = path.join(dir, 'media');
    clip = path.join(dir, 'clip.mp4');
    // A real clip: a moving test pattern with a tone, 640×360, 9 s.
    testClip(clip, { seconds: CLIP_SECONDS });
    // Segments in the clear, read here by ffprobe from the folder; sealed ones: hls-encryption.e2e-spec.ts.
    t = await createTestApp({ HLS_ENCRYPTION: 'off', MEDIA_DIR: media, MAX_UPLOAD_BYTES: String(5 * 1024 * 1024) });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    await t.db.query(`INSERT INTO categories (id, name) VALUES ('jocks', 'Jocks')`);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns an upload into HLS renditions, a poster, a storyboard and a hover preview', async () => {
    const res = await request(t.http)
      .post('/api/admin/videos')
      .set(bearer(admin))
      .field('title', 'Test Pattern Party')
      .field('categories', 'jocks')
      .field('tags', 'Test Pattern, colour bars ,test-pattern')
      .attach('file', clip)
      .expect(202);
    expect(res.body).toEqual({ id: expect.any(Number), job_id: expect.any(Number) });

    // Unpublished while it is built.
    await request(t.http).get(`/api/videos/${res.body.id}`).expect(404);
    const { state, progress, error } = await waitForJob(t, res.body.job_id);
    expect({ state, progress, error }).toEqual({ state: 'done', progress: 100, error: null });

    const video = (await request(t.http).get(`/api/videos/${res.body.id}`).expect(200)).body;
    expect(video).toMatchObject({ title: 'Test Pattern Party', duration: CLIP_SECONDS, categories: [{ id: 'jocks', name: 'Jocks' }] });
    // Tags named at upload, created as typed, each once.
    expect(video.tags).toHaveLength(2);
    expect(video.tags).toEqual(expect.arrayContaining([{ id: 'colour-bars', name: 'colour bars' }, { id: 'test-pattern', name: 'Test Pattern' }]));
    // The job records the seconds of video it processed (the dashboard's processing time per minute of video).
    const [recorded] = await t.db.query<{ media_seconds: number; processing_seconds: number; took: number }[]>(
      'SELECT media_seconds, processing_seconds, extract(epoch FROM finished_at - started_at)::float8 AS took FROM ingest_jobs WHERE id = $1',
      [res.body.job_id],
    );
    expect(Number(recorded.media_seconds)).toBe(CLIP_SECONDS);
    expect(Math.abs(Number(recorded.processing_seconds) - Number(recorded.took))).toBeLessThanOrEqual(1);
    const stem = video.stream_path.replace(/^\/videos\//, '').replace(/\/index\.m3u8$/, '');
    expect(video.poster).toBe(`/thumbs/${stem}/poster.jpg`);
    expect(video.thumbnail).toBe(`/thumbs/${stem}/poster.jpg`);

    // The master names a rendition no taller than the source, each of which decodes for the whole duration.
    const hls = path.join(media, 'videos', stem);
    const master = readFileSync(path.join(hls, 'index.m3u8'), 'utf8');
    const variants = master.split('\n').filter((l) => l.endsWith('.m3u8'));
    expect(variants).toEqual(['240p.m3u8', '360p.m3u8']);
    expect(master).toMatch(/RESOLUTION=640x360/);
    for (const variant of variants) {
      const probe = ffprobeJson(['-show_entries', 'format=duration:stream=codec_name,height', path.join(hls, variant)]);
      expect(Math.abs(Number(probe.format.duration) - CLIP_SECONDS)).toBeLessThan(1);
      expect(probe.streams.map((s: { codec_name: string }) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      execFileSync(ffmpegPath(), ['-v', 'error', '-xerror', '-i', path.join(hls, variant), '-f', 'null', '-']);
    }
    expect(readdirSync(hls).every((f) => /^(index\.m3u8|\d+p\.m3u8|\d+p_\d{3}\.ts)$/.test(f))).toBe(true);

    // The storyboard's cues cover the duration and point at sprite sheets that exist.
    const thumbs = path.join(media, 'thumbs', stem);
    const vtt = readFileSync(path.join(thumbs, 'storyboard.vtt'), 'utf8');
    const cues = [...vtt.matchAll(/^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(sprite-\d+\.jpg)#xywh=\d+,\d+,160,90$/gm)];
    const seconds = (ts: string) => ts.split(':').reduce((s, part) => s * 60 + Number(part), 0);
    expect(cues.length).toBeGreaterThanOrEqual(CLIP_SECONDS);
    expect(cues.length).toBeLessThanOrEqual(CLIP_SECONDS + 1); // AAC priming can make the source a few ms longer
    expect(seconds(cues[0][1])).toBe(0);
    expect(Math.abs(seconds(cues[cues.length - 1][2]) - CLIP_SECONDS)).toBeLessThan(1);
    for (const sprite of new Set(cues.map((c) => c[3]))) expect(existsSync(path.join(thumbs, sprite))).toBe(true);

    // The poster and the muted preview decode.
    const poster = ffprobeJson(['-show_entries', 'stream=width,height', path.join(thumbs, 'poster.jpg')]);
    expect(poster.streams[0]).toEqual({ width: 640, height: 360 });
    // Their WebP copies are made with them (never wider than the poster), one per sprite sheet at its own size.
    for (const [file, size] of [
      ['poster.jpg.320w.webp', { width: 320, height: 180 }],
      ['poster.jpg.640w.webp', { width: 640, height: 360 }],
      ['poster.jpg.960w.webp', { width: 640, height: 360 }],
      ['poster.jpg.1280w.webp', { width: 640, height: 360 }],
      ...[...new Set(cues.map((c) => c[3]))].map((sprite) => [`${sprite}.webp`, { width: 1600, height: 900 }] as const),
    ] as const) {
      expect(ffprobeJson(['-show_entries', 'stream=codec_name,width,height', path.join(thumbs, file)]).streams[0]).toEqual({ codec_name: 'webp', ...size });
    }
    const preview = ffprobeJson(['-show_entries', 'stream=codec_type,width', '-show_entries', 'format=duration', path.join(thumbs, 'preview.mp4')]);
    expect(preview.streams).toEqual([{ codec_type: 'video', width: 320 }]);
    expect(Number(preview.format.duration)).toBeGreaterThan(1);

    // And the player can fetch it through a signed URL.
    const { secureUrl } = (await request(t.http).get('/api/video/secure').query({ path: video.stream_path }).expect(200)).body;
    expect((await request(t.http).get(secureUrl).expect(200)).text).toBe(master);
    expect(existsSync(path.join(media, 'videos', '.incoming'))).toBe(readdirSync(path.join(media, 'videos')).includes('.incoming'));
    expect(readdirSync(path.join(media, 'videos', '.incoming'))).toEqual([]);
  }, 180_000);

  it('retries a file ffmpeg cannot read three times, then marks the job and the video failed', async () => {
    const broken = path.join(dir, 'broken.mp4');
    writeFileSync(broken, Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(4000, 0x42)]));
    const res = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'Broken').attach('file', broken).expect(202);
    const job = await waitForJob(t, res.body.job_id, (j) => j.state === 'failed');
    expect(job.error).toMatch(/Not a playable video/);
    const [row] = await t.db.query('SELECT attempts FROM ingest_jobs WHERE id = $1', [res.body.job_id]);
    expect(row.attempts).toBe(3);
    expect(await settledVideoStatus(t, res.body.id)).toBe('failed');
  }, 60_000);

  describe('refusals', () => {
    const videoCount = async () => Number((await t.db.query('SELECT count(*)::int AS n FROM videos'))[0].n);
    const leftovers = () => (existsSync(path.join(media, 'sources', '.uploads')) ? readdirSync(path.join(media, 'sources', '.uploads')) : []);
    // A request refused by validation has its stored part removed once the response closes, so shortly after
    // the answer rather than before it: wait (briefly) for the directory to empty instead of reading it once.
    const expectNoLeftovers = () => expect.poll(leftovers, { timeout: 2_000, interval: 25 }).toEqual([]);

    it('answers 401 anonymous and 403 for a member', async () => {
      // A tiny file: the guard answers before reading the body, and a large one could still be on its way.
      const tiny = Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom')]);
      await request(t.http).post('/api/admin/videos').field('title', 'x').attach('file', tiny, 'x.mp4').expect(401);
      await request(t.http).post('/api/admin/videos').set(bearer(member)).field('title', 'x').attach('file', tiny, 'x.mp4').expect(403);
    });

    it('answers 415 for bytes that are not a video, whatever the name, and keeps nothing', async () => {
      const before = await videoCount();
      const fake = path.join(dir, 'fake.mp4');
      writeFileSync(fake, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000)]));
      const res = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'Fake').attach('file', fake).expect(415);
      expect(res.body).toEqual({ error: expect.stringMatching(/not a video/), statusCode: 415 });
      expect(await videoCount()).toBe(before);
      await expectNoLeftovers();
    });

    it('answers 413 past MAX_UPLOAD_BYTES and keeps nothing', async () => {
      const big = path.join(dir, 'big.mp4');
      writeFileSync(big, Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(6 * 1024 * 1024)]));
      const before = await videoCount();
      const res = await uploadRaw({ Authorization: `Bearer ${admin.token}` }, 'Big', readFileSync(big));
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).statusCode).toBe(413);
      expect(await videoCount()).toBe(before);
      await expectNoLeftovers();
    });

    it('answers 400 without a file, without a title, for unknown taxonomy and extra fields', async () => {
      const before = await videoCount();
      await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'No File').expect(400);
      await request(t.http).post('/api/admin/videos').set(bearer(admin)).attach('file', clip).expect(400);
      const unknown = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'X').field('performers', 'nobody-at-all').attach('file', clip).expect(400);
      expect(unknown.body.error).toBe('Unknown performer: nobody-at-all');
      await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'X').field('views', '100').attach('file', clip).expect(400);
      const badTag = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'X').field('tags', '!!!').attach('file', clip).expect(400);
      expect(badTag.body.error).toMatch(/the tag "!!!" must contain a letter or a digit/);
      const manyTags = Array.from({ length: 31 }, (_, i) => `t${i}`).join(',');
      expect((await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'X').field('tags', manyTags).attach('file', clip).expect(400)).body.error).toMatch(/at most 30 tags/);
      expect(await videoCount()).toBe(before);
      await expectNoLeftovers();
    });
  });
});
