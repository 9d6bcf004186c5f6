import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { posterArgs } from '../src/media/ffmpeg-args';
import { FfmpegRunner, ffmpegPath, ffprobePath } from '../src/media/ffmpeg.runner';
import { sniffVideoType, type VideoType } from '../src/media/video-type';
import { bearer, createTestApp, registerAdmin, settledVideoStatus, TestApp, TestUser } from './helpers/test-app';

/** ffprobe as ffmpeg would read a file left to its probing: the format it picks, or what it says. */
const probeUnforced = (file: string) => {
  const run = spawnSync(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_entries', 'format=format_name:stream=codec_type', file], { timeout: 10_000 });
  return { stdout: run.stdout.toString(), stderr: run.stderr.toString() };
};

/** True while some process has the FIFO open for reading (opening it to write without blocking fails otherwise). */
const fifoHasReader = (fifo: string) => {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') return false;
    throw error;
  }
};

/** MPEG-TS's sync byte where the upload's sniffing looks for it (offsets 0, 188 and 376), over other bytes. */
const withTsSync = (bytes: Buffer) => {
  const out = Buffer.from(bytes);
  out[0] = out[188] = out[376] = 0x47;
  return out;
};

describe('ffmpeg reading untrusted uploads (e2e, real ffmpeg)', () => {
  let t: TestApp;
  let dir: string;
  let media: string;
  let admin: TestUser;
  const ffmpeg = (...args: string[]) => execFileSync(ffmpegPath(), ['-v', 'error', '-y', ...args]);
  const tiny = (source = 'testsrc2=size=64x48:rate=10:duration=1') => ['-f', 'lavfi', '-i', source];

  const jobOf = async (jobId: number) =>
    (await t.db.query('SELECT state, error, attempts FROM ingest_jobs WHERE id = $1', [jobId]))[0] as { state: string; error: string | null; attempts: number };
  const waitForJob = async (jobId: number, eachTick: () => void = () => undefined) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      eachTick();
      const job = await jobOf(jobId);
      if (job.state === 'done' || job.state === 'failed') return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.state}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const upload = async (title: string, file: string) =>
    (await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', title).attach('file', file).expect(202)).body as { id: number; job_id: number };
  const statusOf = (videoId: number) => settledVideoStatus(t, videoId);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ffmpeg-hardening-'));
    media = path.join(dir, 'media');
    t = await createTestApp({ MEDIA_DIR: media });
    admin = await registerAdmin(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads each container the sniffing knows with its own demuxer, ffprobe and ffmpeg alike', async () => {
    const runner = new FfmpegRunner({ ffmpegPath: null, ffprobePath: null });
    const containers: [VideoType, string, string[]][] = [
      ['mp4', 'clip.mp4', ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']],
      ['matroska', 'clip.mkv', ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']],
      ['matroska', 'clip.webm', ['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '100k']],
      ['avi', 'clip.avi', ['-c:v', 'mpeg4']],
      ['mpegts', 'clip.ts', ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']],
      ['mpegps', 'clip.mpg', ['-c:v', 'mpeg2video', '-f', 'mpeg']],
      ['flv', 'clip.flv', ['-c:v', 'flv']],
    ];
    for (const [type, name, codec] of containers) {
      const file = path.join(dir, name);
      // A keyframe every 5 frames: ffmpeg 4.1 cannot seek (the poster's -ss) into a TS with only one.
      ffmpeg(...tiny('testsrc2=size=64x48:rate=25:duration=1'), '-g', '5', ...codec, file);
      expect(sniffVideoType(readFileSync(file).subarray(0, 512))).toBe(type);
      const source = { path: file, type };
      const probe = await runner.probe(source);
      expect(probe).toMatchObject({ width: 64, height: 48 });
      const poster = path.join(dir, `${name}.jpg`);
      await runner.run(posterArgs(source, poster, probe));
      expect(readFileSync(poster).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
  }, 60_000);

  it('gives an MPEG-TS upload with a single keyframe a poster all the same (its first frame)', async () => {
    const file = path.join(dir, 'one-keyframe.ts');
    ffmpeg(...tiny('testsrc2=size=64x48:rate=25:duration=3'), '-g', '1000', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file);
    const { id, job_id } = await upload('One Keyframe', file);
    expect((await waitForJob(job_id)).state).toBe('done');
    const [{ stem }] = await t.db.query<{ stem: string }[]>('SELECT stem FROM videos WHERE id = $1', [id]);
    expect(readFileSync(path.join(media, 'thumbs', stem, 'poster.jpg')).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('never opens a file that a DASH manifest names, when the manifest begins with MPEG-TS sync bytes', async () => {
    // The named file is a FIFO outside the media store: ffmpeg opening it would block there, seen as a reader.
    const outside = path.join(dir, 'outside');
    mkdirSync(outside);
    const fifo = path.join(outside, 'secret.mp4');
    execFileSync('mkfifo', [fifo]);
    const mpd = `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT1S"><Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="100000" width="64" height="48"><BaseURL>file://${fifo}</BaseURL></Representation></AdaptationSet></Period></MPD>\n`;
    const manifest = path.join(dir, 'manifest.mp4');
    writeFileSync(manifest, Buffer.concat([withTsSync(Buffer.alloc(400, 0x20)), Buffer.from(mpd)]));
    // The trap: left to its probing, ffmpeg hands this file to its DASH demuxer.
    expect(probeUnforced(manifest).stderr).toMatch(/\[dash @/);

    const { id, job_id: jobId } = await upload('Manifest', manifest);
    let opened = false;
    const job = await waitForJob(jobId, () => {
      opened ||= fifoHasReader(fifo);
    });
    expect(opened).toBe(false);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/^Not a playable video: it cannot be read as MPEG-TS, the container its first bytes announce \(file:sources\/\d{4}\/\d\d\/manifest-\w+\.ts: /);
    expect(job.error).not.toMatch(/dash/i);
    expect(job.error).not.toContain(dir);
    expect(await statusOf(id)).toBe('failed');
  }, 60_000);

  it('reads an upload sniffed as MPEG-TS as MPEG-TS, though probing would read its bytes as another format', async () => {
    // A GIF: its signature begins with the sync byte 'G', the other two land in its colour table.
    const gif = path.join(dir, 'trap.gif');
    ffmpeg(...tiny('testsrc2=size=64x48:rate=5:duration=1'), gif);
    // A raw MPEG-1 video stream (no container at all) after 400 bytes bearing the sync bytes.
    const elementary = path.join(dir, 'trap.m1v');
    ffmpeg(...tiny('testsrc2=size=64x48:rate=25:duration=1'), '-c:v', 'mpeg1video', '-f', 'mpeg1video', elementary);
    const prefix = withTsSync(Buffer.alloc(400, 0xff));
    const traps = [
      { name: 'elementary.ts', bytes: Buffer.concat([prefix, readFileSync(elementary)]), probedAs: 'mpegvideo' },
      { name: 'gif.ts', bytes: withTsSync(readFileSync(gif)), probedAs: 'gif' },
    ];
    for (const { name, bytes, probedAs } of traps) {
      const trap = path.join(dir, name);
      writeFileSync(trap, bytes);
      expect(sniffVideoType(bytes.subarray(0, 512))).toBe('mpegts');
      // The trap: left to its probing, ffmpeg finds a video in another format.
      expect(JSON.parse(probeUnforced(trap).stdout)).toMatchObject({ format: { format_name: probedAs }, streams: [{ codec_type: 'video' }] });

      const { id, job_id: jobId } = await upload(name, trap);
      const job = await waitForJob(jobId);
      expect({ name, state: job.state }).toEqual({ name, state: 'failed' });
      expect(job.error).toMatch(/^Not a playable video: it cannot be read as MPEG-TS/);
      expect(await statusOf(id)).toBe('failed');
      await request(t.http).get(`/api/videos/${id}`).expect(404);
    }
  }, 60_000);

  it('fails a file past the caps for good at its first attempt, saying which cap', async () => {
    const oneVideo = path.join(dir, 'one.mkv');
    ffmpeg(...tiny(), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', oneVideo);
    const files = {
      // 17 streams, the same one copied.
      streams: (file: string) => ffmpeg('-i', oneVideo, ...Array.from({ length: 17 }, () => ['-map', '0:v']).flat(), '-c', 'copy', file),
      // A picture wider than 8192 pixels, 32 high: a few kilobytes.
      wide: (file: string) => ffmpeg(...tiny('color=c=blue:size=8200x32:rate=5:duration=1'), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file),
      // Five hours in six frames, one an hour.
      long: (file: string) => ffmpeg(...tiny('color=c=blue:size=64x48:rate=1/3600:duration=18000'), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file),
    };
    const reasons = {
      streams: 'The video is refused: it has 17 streams, more than 16',
      wide: 'The video is refused: its picture is 8200×32, more than 8192 pixels a side',
      long: 'The video is refused: it lasts 5:00:00, longer than 4:00:00',
    };
    for (const [name, make] of Object.entries(files) as [keyof typeof files, (file: string) => void][]) {
      const file = path.join(dir, `${name}.mkv`);
      make(file);
      const { id, job_id: jobId } = await upload(name, file);
      const job = await waitForJob(jobId);
      expect({ name, ...job }).toEqual({ name, state: 'failed', error: reasons[name], attempts: 1 });
      expect(await statusOf(id)).toBe('failed');
    }
  }, 90_000);
});
