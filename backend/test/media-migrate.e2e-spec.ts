import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import type { S3Settings } from '../src/config/app-config';
import { MediaMigration, type MigrationProgress } from '../src/media/media-migration.service';
import { S3MediaStore } from '../src/media/store/s3-media-store';
import { testClip } from './helpers/clips';
import { bucketKeys, dropBucket, s3Env, testS3Settings } from './helpers/s3';
import { bearer, createTestApp, registerAdmin, type TestApp, type TestUser, waitForJob } from './helpers/test-app';
import { binary } from './helpers/binary';
import { sha256, storedKeys } from './helpers/media-files';

/**
 * Moving a live site's media (issue #32, point 5): MEDIA_STORE=disk with a bucket set (a real Ceph RGW), two
 * ingested videos moved to the bucket while their streams and images are fetched without a pause, then back to
 * the disk; each object verified by size and SHA-256, a wrong copy already in the target replaced, the old copies
 * removed once the videos are placed. The kill-and-resume of the command as a process: test/process.e2e-spec.ts.
 */
describe('media:migrate between the disk and a bucket (e2e, real ffmpeg, real Ceph RGW)', () => {
  let t: TestApp;
  let dir: string;
  let settings: S3Settings;
  let bucket: S3MediaStore;
  let admin: TestUser;
  const videos: { id: number; stream_path: string; poster: string; stem: string }[] = [];
  /** Every object of the two videos and their sources, by key: its SHA-256 as ingested. */
  let original: Map<string, string>;

  const media = () => path.join(dir, 'media');
  const diskObjects = (): Map<string, string> => new Map(storedKeys(media()).map((key) => [key, sha256(readFileSync(path.join(media(), key)))]));
  const bucketObjects = async (): Promise<Map<string, string>> => {
    const found = new Map<string, string>();
    for (const key of await bucketKeys(settings)) found.set(key, sha256(await bucket.readBytes(key)));
    return found;
  };
  const placements = async () =>
    ((await t.db.query('SELECT stem, store FROM media_placements ORDER BY stem')) as { stem: string; store: string }[]).map((r) => `${r.stem}:${r.store}`);

  /** Fetches each video's master and variant playlists, first segment and poster until `stop`, holding each to its bytes. */
  function keepWatching(): { stop(): Promise<{ fetched: number; failures: string[] }> } {
    let running = true;
    const failures: string[] = [];
    let fetched = 0;
    const loop = (async () => {
      while (running) {
        for (const video of videos) {
          const { secureUrl } = (await request(t.http).get('/api/video/secure').query({ path: video.stream_path })).body as { secureUrl: string };
          const folder = secureUrl.slice(0, -'index.m3u8'.length);
          const master = await request(t.http).get(secureUrl);
          const variant = await request(t.http).get(`${folder}240p.m3u8`);
          const segment = variant.text?.split('\n').find((line) => line.endsWith('.ts'));
          const answers = [
            [`videos/${video.stem}/index.m3u8`, master.status, Buffer.from(master.text ?? '')],
            [`videos/${video.stem}/240p.m3u8`, variant.status, Buffer.from(variant.text ?? '')],
          ] as [string, number, Buffer][];
          if (segment) {
            const res = await request(t.http).get(`${folder}${segment}`).buffer(true).parse(binary);
            answers.push([`videos/${video.stem}/${segment}`, res.status, res.body as Buffer]);
          }
          const poster = await request(t.http).get(`/thumbs/${video.stem}/poster.jpg`).buffer(true).parse(binary);
          answers.push([`thumbs/${video.stem}/poster.jpg`, poster.status, poster.body as Buffer]);
          for (const [key, status, body] of answers) {
            fetched += 1;
            if (status !== 200 || sha256(body) !== original.get(key)) failures.push(`${key}: ${status}`);
          }
          if (!segment) failures.push(`videos/${video.stem}/240p.m3u8 names no segment`);
        }
      }
    })();
    return {
      async stop() {
        running = false;
        await loop;
        return { fetched, failures };
      },
    };
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'media-migrate-'));
    settings = testS3Settings();
    bucket = new S3MediaStore(settings);
    // MEDIA_STORE=disk (new media on disk), with the bucket set: where moved videos are read from.
    const { MEDIA_STORE: _disk, ...bucketEnv } = s3Env(settings);
    t = await createTestApp({ DATA_DIR: dir, MEDIA_DIR: media(), ...bucketEnv });
    admin = await registerAdmin(t);
    const clip = readFileSync(testClip(path.join(dir, 'clip.mp4'), { seconds: 4, size: '320x240', rate: 25 }));
    for (const title of ['Moved Clip One', 'Moved Clip Two']) {
      const upload = await request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', title)
        .attach('file', clip, { filename: 'clip.mp4', contentType: 'video/mp4' }).expect(202);
      const { id, job_id: jobId } = upload.body as { id: number; job_id: number };
      expect(await waitForJob(t, jobId)).toMatchObject({ state: 'done', error: null });
      const video = (await request(t.http).get(`/api/videos/${id}`).expect(200)).body as { id: number; stream_path: string; poster: string };
      videos.push({ ...video, stem: video.stream_path.slice('/videos/'.length, -'/index.m3u8'.length) });
    }
    original = diskObjects();
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    if (settings) await dropBucket(settings);
    bucket?.client.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('counts what would move on a dry run, and writes nothing', async () => {
    const seen: MigrationProgress[] = [];
    const report = await t.app.get(MediaMigration).run({ to: 's3', dryRun: true, onProgress: (p) => seen.push(p) });
    const bytes = [...original.keys()].reduce((sum, key) => sum + statSync(path.join(media(), key)).size, 0);
    expect(seen).toEqual([{ videos: 2, videosDone: 0, bytes, bytesDone: 0, stem: null }]);
    expect(report).toMatchObject({ moved: [], copied: 0, removed: 0 });
    expect(await bucketKeys(settings)).toEqual([]);
    expect(diskObjects()).toEqual(original);
  });

  it('moves every video to the bucket while they are watched: each object verified, each video placed, then the old copies removed', async () => {
    expect(original.size).toBeGreaterThan(20);
    const watching = keepWatching();
    const seen: MigrationProgress[] = [];
    const report = await t.app.get(MediaMigration).run({ to: 's3', graceSeconds: 1, onProgress: (p) => seen.push(p) });
    // Watched a while longer, from the bucket now.
    await new Promise((r) => setTimeout(r, 500));
    const { fetched, failures } = await watching.stop();

    expect(failures).toEqual([]);
    expect(fetched).toBeGreaterThan(16);
    expect(report).toMatchObject({ from: 'disk', to: 's3', failed: [], copied: original.size, alreadyThere: 0, sources: 2, removed: original.size });
    expect(report.moved).toEqual(videos.map((v) => v.stem).sort());
    // Every object in the bucket with the bytes it had on disk, none left on disk; each video placed there.
    expect(await bucketObjects()).toEqual(original);
    expect(diskObjects()).toEqual(new Map());
    expect(await placements()).toEqual(videos.map((v) => `${v.stem}:s3`).sort());
    // The bar only goes forward, and ends full.
    expect(seen.every((p, i) => i === 0 || (p.bytesDone >= seen[i - 1].bytesDone && p.videosDone >= seen[i - 1].videosDone))).toBe(true);
    expect(seen.at(-1)).toMatchObject({ videosDone: 2, bytesDone: seen[0].bytes });
  }, 120_000);

  it('finds nothing to move on a second run', async () => {
    const report = await t.app.get(MediaMigration).run({ to: 's3', graceSeconds: 0 });
    expect(report).toMatchObject({ moved: [], failed: [], copied: 0, sources: 0, removed: 0 });
    expect(await bucketObjects()).toEqual(original);
  });

  it('moves them back to the disk, replacing a wrong copy already there rather than trusting its size', async () => {
    // A copy of the master playlist left on disk with other bytes of the same length (a disk that lied, an old
    // run's leftover): the move must not take it as done.
    const [first] = videos;
    const master = path.join(media(), 'videos', first.stem, 'index.m3u8');
    const size = (await bucket.readBytes(`videos/${first.stem}/index.m3u8`)).length;
    mkdirSync(path.dirname(master), { recursive: true });
    writeFileSync(master, Buffer.alloc(size, 0x23));

    const watching = keepWatching();
    const report = await t.app.get(MediaMigration).run({ to: 'disk', graceSeconds: 1 });
    const { failures } = await watching.stop();
    expect(failures).toEqual([]);
    expect(report).toMatchObject({ from: 's3', to: 'disk', failed: [], copied: original.size, alreadyThere: 0, removed: original.size });
    expect(diskObjects()).toEqual(original);
    expect(await bucketKeys(settings)).toEqual([]);
    expect(await placements()).toEqual(videos.map((v) => `${v.stem}:disk`).sort());
  }, 120_000);

  it('keeps the old copies with keep, and a deleted video leaves nothing in either store', async () => {
    const report = await t.app.get(MediaMigration).run({ to: 's3', keep: true });
    expect(report).toMatchObject({ failed: [], copied: original.size, removed: 0 });
    expect(await bucketObjects()).toEqual(original);
    expect(diskObjects()).toEqual(original);

    const [, second] = videos;
    await request(t.http).post('/api/admin/delete-video').set(bearer(admin)).send({ id: second.id }).expect(200);
    // Its renditions and images, wherever they were (its source upload is kept, as it is without a move).
    const left = (keys: Iterable<string>) => [...keys].filter((key) => key.includes(second.stem) && !key.startsWith('sources/'));
    expect(left((await bucketObjects()).keys())).toEqual([]);
    expect(left(diskObjects().keys())).toEqual([]);
    expect(left(original.keys()).length).toBeGreaterThan(10);
  }, 120_000);
});
