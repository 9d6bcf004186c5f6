import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import type { S3Settings } from '../src/config/app-config';
import { ffmpegPath, ffprobePath } from '../src/media/ffmpeg.runner';
import { S3MediaStore } from '../src/media/store/s3-media-store';
import { bucketKeys, dropBucket, s3Env, testS3Settings } from './helpers/s3';
import { TcpProxy } from './helpers/tcp-proxy';
import { bearer, createTestApp, registerAdmin, type TestApp, type TestUser, waitForJob } from './helpers/test-app';
import { insertVideo } from './helpers/factories';
import { JobRunner } from '../src/jobs/job-runner.service';
import { JobsService } from '../src/jobs/jobs.service';
import { INGEST_KIND } from '../src/media/ingest.service';
import { UploadSpool } from '../src/media/upload-spool';
import { SPOOLED } from '../src/media/uploads.service';
import { decryptSegment, sequenceIv } from '../src/media/hls-encryption';
import { binary } from './helpers/binary';

/**
 * MEDIA_STORE=s3 (issue #32, points 1 and 2): an upload goes to the bucket, the ingest fetches it into its own
 * scratch, publishes every rendition, image and playlist as objects and cleans its scratch; the embedded server
 * streams the objects with ranges; nothing is kept on the machine's disk. A real Ceph RGW (test/helpers/s3.ts),
 * reached through a TCP proxy that the last test cuts.
 */
describe('Media in an S3 bucket (e2e, real ffmpeg, real Ceph RGW)', () => {
  let t: TestApp;
  let dir: string;
  let settings: S3Settings;
  let bucket: S3MediaStore;
  let proxy: TcpProxy;
  let admin: TestUser;
  let clip: Buffer;
  let video: { id: number; stream_path: string; poster: string };
  let stem: string;
  /** The first 240p segment's name, with its key's id. */
  let firstSegment: string;

  const filesUnder = (folder: string): string[] => {
    try {
      return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(folder, f)).isFile());
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'media-s3-'));
    const clipFile = path.join(dir, 'clip.mp4');
    execFileSync(ffmpegPath(), [
      '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30:duration=6', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clipFile,
    ]);
    clip = readFileSync(clipFile);
    rmSync(clipFile);
    settings = testS3Settings();
    bucket = new S3MediaStore(settings);
    proxy = await TcpProxy.to(settings.endpoint);
    t = await createTestApp({ DATA_DIR: dir, MEDIA_DIR: path.join(dir, 'media'), ...s3Env(settings, `http://127.0.0.1:${proxy.port}`) });
    admin = await registerAdmin(t);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await proxy?.cut();
    if (settings) await dropBucket(settings);
    bucket?.client.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends an upload to the bucket, and the ingest publishes every rendition, image and playlist there, keeping nothing on disk', async () => {
    const upload = await request(t.http)
      .post('/api/admin/videos')
      .set(bearer(admin))
      .field('title', 'Bucket Clip')
      .attach('file', clip, { filename: 'clip.mp4', contentType: 'video/mp4' })
      .expect(202);
    const { id, job_id: jobId } = upload.body as { id: number; job_id: number };
    expect(await waitForJob(t, jobId)).toMatchObject({ state: 'done', error: null });

    video = (await request(t.http).get(`/api/videos/${id}`).expect(200)).body;
    stem = video.stream_path.slice('/videos/'.length, -'/index.m3u8'.length);
    const keys = await bucketKeys(settings);
    expect(keys).toEqual(
      expect.arrayContaining([
        `videos/${stem}/index.m3u8`, `videos/${stem}/240p.m3u8`, `videos/${stem}/360p.m3u8`,
        `thumbs/${stem}/poster.jpg`, `thumbs/${stem}/poster.jpg.320w.webp`, `thumbs/${stem}/storyboard.vtt`, `thumbs/${stem}/sprite-0.jpg`,
        `thumbs/${stem}/preview.mp4`, `sources/${stem}.mp4`,
      ]),
    );
    // The segments are sealed (HLS_ENCRYPTION is on by default), each named for its key; the key is not in the bucket.
    const variant = (await bucket.readBytes(`videos/${stem}/240p.m3u8`)).toString();
    const keyId = /#EXT-X-KEY:METHOD=AES-128,URI="([0-9a-f]{16})\.key"/.exec(variant)?.[1] as string;
    firstSegment = `240p_000-${keyId}.ts`;
    expect(variant.split('\n')).toContain(firstSegment);
    expect(keys).toContain(`videos/${stem}/${firstSegment}`);
    expect(keys.filter((key) => key.endsWith('.key') || /_\d{3}\.ts$/.test(key))).toEqual([]);
    // The source is the upload, byte for byte.
    expect((await bucket.readBytes(`sources/${stem}.mp4`)).equals(clip)).toBe(true);
    // Nothing of it on this machine's disk: no media folder, no upload left in the spool, an empty scratch.
    expect(filesUnder(path.join(dir, 'media'))).toEqual([]);
    expect(filesUnder(path.join(dir, 'scratch'))).toEqual([]);
  }, 180_000);

  it('streams the HLS from the bucket through the signed link, with ranges, validators and HEAD', async () => {
    const { secureUrl } = (await request(t.http).get('/api/video/secure').query({ path: video.stream_path }).expect(200)).body as { secureUrl: string };
    const folderUrl = secureUrl.slice(0, -'index.m3u8'.length);
    const master = await request(t.http).get(secureUrl).expect(200);
    expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(master.text).toBe((await bucket.readBytes(`videos/${stem}/index.m3u8`)).toString());
    expect(master.text).toContain('240p.m3u8');

    const segment = await bucket.readBytes(`videos/${stem}/${firstSegment}`);
    const whole = await request(t.http).get(`${folderUrl}${firstSegment}`).buffer(true).parse(binary).expect(200);
    expect(whole.headers).toMatchObject({ 'content-type': 'video/mp2t', 'accept-ranges': 'bytes', 'content-length': String(segment.length), 'cache-control': 'private, max-age=31536000, immutable' });
    expect(master.headers['cache-control']).toBe('private, max-age=10');
    expect((whole.body as Buffer).equals(segment)).toBe(true);

    const part = await request(t.http).get(`${folderUrl}${firstSegment}`).set('Range', 'bytes=188-375').buffer(true).parse(binary).expect(206);
    expect(part.headers['content-range']).toBe(`bytes 188-375/${segment.length}`);
    expect((part.body as Buffer).equals(segment.subarray(188, 376))).toBe(true);
    const tail = await request(t.http).get(`${folderUrl}${firstSegment}`).set('Range', 'bytes=-188').buffer(true).parse(binary).expect(206);
    expect((tail.body as Buffer).equals(segment.subarray(segment.length - 188))).toBe(true);
    const past = await request(t.http).get(`${folderUrl}${firstSegment}`).set('Range', `bytes=${segment.length}-`).expect(416);
    expect(past.headers['content-range']).toBe(`bytes */${segment.length}`);
    expect(past.body).toEqual({ error: 'Range not satisfiable', statusCode: 416 });

    await request(t.http).get(`${folderUrl}${firstSegment}`).set('If-None-Match', whole.headers.etag).expect(304);
    const head = await request(t.http).head(`${folderUrl}${firstSegment}`).expect(200);
    expect(head.headers['content-length']).toBe(String(segment.length));

    await request(t.http).get(`${folderUrl}240p_999.ts`).expect(404);
    // The key, from the API only, opens the segment: MPEG-TS packets (sync byte 0x47 every 188 bytes).
    const keyId = firstSegment.slice('240p_000-'.length, -'.ts'.length);
    const key = await request(t.http).get(`${folderUrl}${keyId}.key`).buffer(true).parse(binary).expect(200);
    expect(key.headers['cache-control']).toBe('private, no-store');
    const plain = decryptSegment(segment, key.body as Buffer, sequenceIv(0));
    expect([plain[0], plain[188], plain[376]]).toEqual([0x47, 0x47, 0x47]);
    expect(segment[0] === 0x47 && segment[188] === 0x47 && segment[376] === 0x47).toBe(false);
    await request(t.http).get(secureUrl.replace(/\/s\/[^,]+/, '/s/AAAAAAAAAAAAAAAAAAAAAA')).expect(403);
  });

  it('serves the images from the bucket, and makes a missing WebP copy there on its first request', async () => {
    const poster = await request(t.http).get(video.poster).buffer(true).parse(binary).expect(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect((poster.body as Buffer).equals(await bucket.readBytes(`thumbs/${stem}/poster.jpg`))).toBe(true);

    await bucket.remove(`thumbs/${stem}/poster.jpg.640w.webp`);
    const copy = await request(t.http).get(`/thumbs/${stem}/poster.jpg.640w.webp`).buffer(true).parse(binary).expect(200);
    expect(copy.headers['content-type']).toBe('image/webp');
    expect((copy.body as Buffer).subarray(8, 12).toString()).toBe('WEBP');
    expect(await bucket.stat(`thumbs/${stem}/poster.jpg.640w.webp`)).toMatchObject({ size: (copy.body as Buffer).length });
    await request(t.http).get(`/thumbs/${stem}/none.jpg`).expect(404);
  });

  it("replaces a thumbnail in the bucket with an admin's upload, and its copies with it", async () => {
    const jpeg = execFileSync(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:size=320x180', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', '-']);
    const before = await bucket.stat(`thumbs/${stem}/poster.jpg.320w.webp`);
    await request(t.http)
      .post('/api/admin/update-thumbnail')
      .set(bearer(admin))
      .field('uploadPath', `/thumbs/${stem}/poster.jpg`)
      .attach('file', jpeg, { filename: 'red.jpg', contentType: 'image/jpeg' })
      .expect(200);
    expect((await bucket.readBytes(`thumbs/${stem}/poster.jpg`)).equals(jpeg)).toBe(true);
    expect((await bucket.stat(`thumbs/${stem}/poster.jpg.320w.webp`))?.version).not.toBe(before?.version);
    const copy = path.join(dir, 'copy.webp');
    await bucket.download(`thumbs/${stem}/poster.jpg.320w.webp`, copy);
    const ffprobe = JSON.parse(execFileSync(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_entries', 'stream=width,height', copy]).toString()) as {
      streams: { width: number; height: number }[];
    };
    expect(ffprobe.streams[0]).toEqual({ width: 320, height: 180 });
  });

  it('answers 503 with Retry-After while the bucket cannot be reached, and serves again once it can', async () => {
    const { secureUrl } = (await request(t.http).get('/api/video/secure').query({ path: video.stream_path }).expect(200)).body as { secureUrl: string };
    await proxy.cut();
    try {
      const cut = await request(t.http).get(secureUrl).expect(503);
      expect(cut.headers['retry-after']).toBe('5');
      expect(cut.body).toEqual({ error: 'The media store cannot be reached right now; try again shortly', statusCode: 503 });
      await request(t.http).get(video.poster).expect(503);
    } finally {
      await proxy.restore();
    }
    await request(t.http).get(secureUrl).expect(200);
  }, 60_000);

  /** An upload accepted (202) while the bucket cannot be reached; `whileCut` runs before the bucket is back. */
  async function uploadWhileCut(title: string, whileCut: (accepted: { id: number; job_id: number }) => Promise<void> = async () => undefined) {
    await proxy.cut();
    try {
      const accepted = (await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', title)
        .attach('file', clip, { filename: 'clip.mp4', contentType: 'video/mp4' }).expect(202)).body as { id: number; job_id: number };
      await whileCut(accepted);
      return accepted;
    } finally {
      await proxy.restore();
    }
  }

  it('keeps an upload in its spool while the bucket cannot be reached, and sends it when it can: the video is made', async () => {
    const accepted = await uploadWhileCut('Spooled Clip', async (accepted) => {
      // Held: no worker takes it while its source is not in the bucket, and the admin's list says why.
      const held = await waitForJob(t, accepted.job_id, (j) => j.state === 'queued', 5_000);
      expect(held.error).toBe(SPOOLED);
      const spool = filesUnder(path.join(dir, 'spool'));
      expect(spool.sort()).toEqual([`${accepted.job_id}.json`, `${accepted.job_id}.upload`]);
      expect(readFileSync(path.join(dir, 'spool', `${accepted.job_id}.upload`)).equals(clip)).toBe(true);
      // Still down: a pass sends nothing and keeps it.
      expect(await t.app.get(UploadSpool).flush()).toBe(0);
      expect(filesUnder(path.join(dir, 'spool'))).toHaveLength(2);
    });
    // The bucket answers again: the next pass (every 10 s; here at once) sends it, and the job runs.
    expect(await t.app.get(UploadSpool).flush()).toBe(1);
    expect(filesUnder(path.join(dir, 'spool'))).toEqual([]);
    expect(await waitForJob(t, accepted.job_id)).toMatchObject({ state: 'done', error: null });
    const video = (await request(t.http).get(`/api/videos/${accepted.id}`).expect(200)).body as { stream_path: string };
    const spooledStem = video.stream_path.slice('/videos/'.length, -'/index.m3u8'.length);
    expect((await bucket.readBytes(`sources/${spooledStem}.mp4`)).equals(clip)).toBe(true);
    expect(filesUnder(path.join(dir, 'scratch'))).toEqual([]);
  }, 120_000);

  it('keeps in the bucket a spooled upload whose job another pass already released (two processes on one spool)', async () => {
    const accepted = await uploadWhileCut('Sent Twice');
    // As if a command beside the server had sent it and a worker had taken the job meanwhile.
    await t.db.query(`UPDATE ingest_jobs SET not_before = NULL, state = 'running', locked_by = 'elsewhere', locked_at = now() WHERE id = $1`, [accepted.job_id]);
    expect(await t.app.get(UploadSpool).flush()).toBe(1);
    expect(filesUnder(path.join(dir, 'spool'))).toEqual([]);
    const [{ url }] = await t.db.query<{ url: string }[]>('SELECT url FROM videos WHERE id = $1', [accepted.id]);
    expect((await bucket.readBytes(`sources${url}`)).equals(clip)).toBe(true);
    // The job was nobody's really: the video goes, so that no worker takes it over later.
    await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: accepted.id }).expect(200);
  }, 60_000);

  it('drops a spooled upload whose video was deleted meanwhile, sending nothing that stays', async () => {
    await uploadWhileCut('Deleted While Spooled', async (accepted) => {
      await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: accepted.id }).expect(200);
    });
    const sourcesBefore = (await bucketKeys(settings)).filter((key) => key.startsWith('sources/'));
    await t.app.get(UploadSpool).flush();
    expect(filesUnder(path.join(dir, 'spool'))).toEqual([]);
    expect((await bucketKeys(settings)).filter((key) => key.startsWith('sources/'))).toEqual(sourcesBefore);
  }, 60_000);

  it('sends nothing to the bucket for an upload it refuses (unknown taxonomy, not a video)', async () => {
    const sourcesBefore = (await bucketKeys(settings)).filter((key) => key.startsWith('sources/'));
    await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'Nobody').field('performers', 'nobody-at-all').attach('file', clip, 'clip.mp4').expect(400);
    await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'Fake').attach('file', Buffer.alloc(4000, 1), 'fake.mp4').expect(415);
    expect((await bucketKeys(settings)).filter((key) => key.startsWith('sources/'))).toEqual(sourcesBefore);
    expect(filesUnder(path.join(dir, 'scratch'))).toEqual([]);
  });

  it('keeps an ingest waiting, its attempts unspent, while the bucket cannot be reached, and finishes it once it can', async () => {
    const id = await insertVideo(t.db, { url: '/2026/11/waiting-clip.mp4', status: 'processing', title: 'Waiting Clip' });
    await bucket.write('sources/2026/11/waiting-clip.mp4', clip);
    await proxy.cut();
    const jobId = await t.app.get(JobsService).enqueue(id, INGEST_KIND, { source: '2026/11/waiting-clip.mp4' });
    try {
      t.app.get(JobRunner).poke();
      const job = await waitForJob(t, jobId, (j) => j.state === 'queued' && j.error !== null, 20_000);
      expect(job).toMatchObject({ state: 'queued', attempts: 0, error: expect.stringMatching(/^Not reachable now, tried again in 10 s/) });
      expect((await t.db.query('SELECT status FROM videos WHERE id = $1', [id]))[0].status).toBe('processing');
    } finally {
      await proxy.restore();
    }
    // Its time come (brought forward here), the same job runs to the end.
    await t.db.query(`UPDATE ingest_jobs SET not_before = now() WHERE id = $1`, [jobId]);
    t.app.get(JobRunner).poke();
    expect(await waitForJob(t, jobId, (j) => j.state === 'done')).toMatchObject({ state: 'done', attempts: 1 });
    expect(await bucket.stat('videos/2026/11/waiting-clip/index.m3u8')).not.toBeNull();
    expect((await t.db.query('SELECT status FROM videos WHERE id = $1', [id]))[0].status).toBe('ready');
  }, 180_000);

  it("removes a deleted video's renditions and images from the bucket, and no other's", async () => {
    await bucket.write('videos/other/index.m3u8', '#EXTM3U\n');
    await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: video.id }).expect(200);
    const keys = await bucketKeys(settings);
    expect(keys.filter((key) => key.startsWith(`videos/${stem}/`) || key.startsWith(`thumbs/${stem}/`))).toEqual([]);
    expect(keys).toContain('videos/other/index.m3u8');
  });
});

