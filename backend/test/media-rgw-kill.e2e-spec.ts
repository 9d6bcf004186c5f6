import { HeadObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import type { S3Settings } from '../src/config/app-config';
import { UploadSpool } from '../src/media/upload-spool';
import { SPOOLED } from '../src/media/uploads.service';
import { S3MediaStore } from '../src/media/store/s3-media-store';
import { s3Env } from './helpers/s3';
import { testClip } from './helpers/clips';
import { bearer, createTestApp, registerAdmin, type TestApp, type TestUser, waitForJob } from './helpers/test-app';
import { sha256 } from './helpers/media-files';

/**
 * Issue #32, point 6: the radosgw process itself killed (SIGKILL) while an upload streams to it, on a Ceph cluster
 * of this file's own (the shared one serves the other suites meanwhile), then started again. Nothing is mocked:
 * the daemon goes away mid-multipart-upload and comes back.
 */
const SCRIPTS = path.resolve(__dirname, '../../scripts/s3');
const CLUSTER = path.join(process.env.TMPDIR ?? '/tmp', 'hunktube-s3-kill');
const ENV = { ...process.env, S3LAB_DIR: CLUSTER, S3LAB_RGW_PORT: '7493', S3LAB_MON_PORT: '3393', S3LAB_FRESH: '1' };


describe('Media in a bucket whose radosgw is killed mid-upload (e2e, a Ceph cluster of its own)', () => {
  let settings: S3Settings;
  let bucket: S3MediaStore;
  let t: TestApp;
  let admin: TestUser;
  let dir: string;
  let upload: Buffer;

  const rgwPid = () => Number(readFileSync(path.join(CLUSTER, 'run', 'rgw.pid'), 'utf8'));

  /** radosgw as the script starts it (its own process group), recorded where stop-ceph-s3.sh looks. */
  async function startRgw(): Promise<void> {
    const rgw = spawn('radosgw', ['-c', path.join(CLUSTER, 'ceph.conf'), '-n', 'client.rgw.a', '-f'], { detached: true, stdio: 'ignore' });
    rgw.unref();
    writeFileSync(path.join(CLUSTER, 'run', 'rgw.pid'), String(rgw.pid));
    for (let i = 0; i < 300; i++) {
      if (await fetch(`${settings.endpoint}/`).then((r) => r.status === 200, () => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('radosgw did not come back within 30 s');
  }

  beforeAll(async () => {
    const started = spawnSync(path.join(SCRIPTS, 'start-ceph-s3.sh'), { encoding: 'utf8', env: ENV, timeout: 180_000 });
    if (started.status !== 0) throw new Error(`scripts/s3/start-ceph-s3.sh did not start a cluster in ${CLUSTER}:\n${started.stderr}`);
    const vars = Object.fromEntries(started.stdout.split('\n').flatMap((line) => {
      const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
      return m ? [[m[1], m[2]]] : [];
    }));
    settings = {
      endpoint: vars.S3_ENDPOINT, region: vars.S3_REGION, accessKey: vars.S3_ACCESS_KEY, secretKey: vars.S3_SECRET_KEY,
      forcePathStyle: true, bucket: 'hunktube-kill', prefix: '',
    };
    bucket = new S3MediaStore(settings);
    dir = mkdtempSync(path.join(tmpdir(), 'rgw-kill-'));
    // A real 2 s clip, then a 48 MiB `free` box (ISO BMFF's padding, which every reader skips): a valid MP4
    // whose upload takes long enough to be cut half-way, and whose ingest is quick.
    const clip = path.join(dir, 'clip.mp4');
    testClip(clip, { seconds: 2, size: '320x240', rate: 25, audio: false, faststart: true });
    const padding = randomBytes(48 * 1024 * 1024);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(padding.length + 8, 0);
    header.write('free', 4, 'latin1');
    upload = Buffer.concat([readFileSync(clip), header, padding]);
    t = await createTestApp({ DATA_DIR: dir, MEDIA_DIR: path.join(dir, 'media'), MAX_UPLOAD_BYTES: String(100 * 1024 * 1024), ...s3Env(settings) });
    admin = await registerAdmin(t);
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    bucket?.client.destroy();
    spawnSync(path.join(SCRIPTS, 'stop-ceph-s3.sh'), { env: ENV, stdio: 'ignore' });
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the upload in the spool, publishes no half object, and sends it whole once radosgw is back', async () => {
    const answer = request(t.http).post('/api/admin/videos').set(bearer(admin)).field('title', 'Cut Mid Upload')
      .attach('file', upload, { filename: 'clip.mp4', contentType: 'video/mp4' })
      .then((res) => res);
    // Killed once the multipart upload of the source has begun.
    let killedDuring = false;
    for (let i = 0; i < 3000 && !killedDuring; i++) {
      const listed = await bucket.client.send(new ListMultipartUploadsCommand({ Bucket: settings.bucket, Prefix: 'sources/' })).catch(() => null);
      if (listed?.Uploads?.length) {
        process.kill(-rgwPid(), 'SIGKILL');
        killedDuring = true;
      } else await new Promise((r) => setTimeout(r, 10));
    }
    expect(killedDuring).toBe(true);
    const res = await answer;
    expect(res.status).toBe(202);
    const { id, job_id: jobId } = res.body as { id: number; job_id: number };
    expect((await waitForJob(t, jobId, (j) => j.state === 'queued', 5_000)).error).toBe(SPOOLED);
    expect(readdirSync(path.join(dir, 'spool')).sort()).toEqual([`${jobId}.json`, `${jobId}.upload`]);

    await startRgw();
    // Back, before the spool sends it again: the source is not an object (the parts sent are not one).
    const [{ url }] = await t.db.query<{ url: string }[]>('SELECT url FROM videos WHERE id = $1', [id]);
    const key = `sources${url.replace(/\.mp4$/, '')}.mp4`;
    const head = await bucket.client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key })).then(() => 200, (e: { $metadata?: { httpStatusCode?: number } }) => e.$metadata?.httpStatusCode);
    expect(head).toBe(404);

    expect(await t.app.get(UploadSpool).flush()).toBe(1);
    expect(sha256(await bucket.readBytes(key))).toBe(sha256(upload));
    expect(readdirSync(path.join(dir, 'spool'))).toEqual([]);
    expect(await waitForJob(t, jobId, undefined, 120_000)).toMatchObject({ state: 'done', error: null });
    await request(t.http).get(`/api/videos/${id}`).expect(200);
  }, 240_000);
});
