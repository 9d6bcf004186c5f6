import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ffmpegPath } from '../src/media/ffmpeg.runner';
import { createServerDatabase, onPostgresServer } from './helpers/test-app';
import { guestFrom } from './helpers/factories';
import { testClip } from './helpers/clips';
import { S3MediaStore } from '../src/media/store/s3-media-store';
import { bucketKeys, dropBucket, s3Env, testS3Settings } from './helpers/s3';
import { sha256, storedKeys } from './helpers/media-files';
import { ensureServerBuilt } from './helpers/built-server';
import { freePort } from '../bench/free-port';

/**
 * The real server process, as `npm start` runs it: stopped with SIGTERM while views are still buffered (after a
 * restart the database must hold every view that was answered 200), and killed outright mid-transcode (after a
 * restart the ingest job must resume and end done).
 */
describe('The server across restarts (e2e, real process)', () => {
  const backend = path.resolve(__dirname, '..');
  let dataDir: string;
  let env: Record<string, string>;
  let dropDatabase = async () => undefined as void;
  let server: ChildProcess | undefined;

  async function start(): Promise<string> {
    const port = await freePort();
    // Its own process group, so that a SIGKILL can take its ffmpeg children with it, as a crash of the machine would.
    server = spawn(process.execPath, [path.join(backend, 'dist', 'main.js')], {
      // TRUST_PROXY: the test tells guest viewers apart by X-Forwarded-For (a guest is their network).
      env: { ...process.env, ...env, PORT: String(port), TRUST_PROXY: 'loopback' },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 240; i++) {
      if (server.exitCode !== null) throw new Error(`the server exited (code ${server.exitCode}) before it answered on port ${port}`);
      try {
        if ((await fetch(`${base}/api/health`)).ok) return base;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the server did not start');
  }

  /** Stops the server a test left running (SIGTERM, waited for). */
  async function stop(): Promise<void> {
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const stopped = once(server, 'exit');
    server.kill('SIGTERM');
    await stopped;
  }

  beforeAll(async () => {
    // The test runs the compiled server, as `npm start` does.
    ensureServerBuilt();
    dataDir = mkdtempSync(path.join(tmpdir(), 'shutdown-'));
    env = {
      NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DEMO_SEED: 'false',
      ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'keeper of the keys 1', RATE_LIMIT_AUTH: '0',
      COUNTER_FLUSH_MS: '3600000', RATE_LIMIT_WRITE: '0', DATABASE_URL: '', REDIS_URL: '',
    };
    if (onPostgresServer()) {
      const db = await createServerDatabase(process.env.TEST_DATABASE_URL as string);
      env.DATABASE_URL = db.databaseUrl;
      dropDatabase = db.dropDatabase;
    }
    // A few catalogue videos, written by the seeding command as a user would.
    execFileSync(process.execPath, [path.join(backend, 'dist', 'database', 'seeds', 'seed-catalog.cli.js'), '--videos', '3'], {
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
  }, 180_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      process.kill(-(server.pid as number), 'SIGKILL');
      await exited;
    }
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes every buffered view before the process exits', async () => {
    let base = await start();
    const [video] = ((await (await fetch(`${base}/api/videos?limit=1`)).json()) as { data: { id: number; views: number }[] }).data;

    let answered = 0;
    for (let batch = 0; batch < 10; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${base}/api/video/increment-views`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...guestFrom(`shutdown-viewer-${batch}-${i}`) },
            body: JSON.stringify({ videoId: video.id }),
          }),
        ),
      );
      answered += responses.filter((r) => r.status === 200).length;
    }
    expect(answered).toBe(200);

    const exited = once(server as ChildProcess, 'exit');
    (server as ChildProcess).kill('SIGTERM');
    const [code, signal] = await exited;
    expect(code === 0 || signal === 'SIGTERM').toBe(true);

    base = await start();
    const after = (await (await fetch(`${base}/api/videos/${video.id}`)).json()) as { views: number };
    expect(after.views).toBe(video.views + answered);
    (server as ChildProcess).kill('SIGTERM');
    await once(server as ChildProcess, 'exit');
  }, 180_000);

  it('resumes an ingest job killed mid-transcode and ends it done', async () => {
    const clip = path.join(dataDir, 'long-clip.mp4');
    execFileSync(ffmpegPath(), [
      '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=12', '-f', 'lavfi', '-i', 'sine=duration=12',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip,
    ]);
    let base = await start();
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'keeper of the keys 1' }),
    });
    // (A refused login says why, rather than the upload's 401 below.)
    expect({ status: login.status, body: login.status === 200 ? null : await login.clone().text() }).toEqual({ status: 200, body: null });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const form = new FormData();
    form.append('title', 'Interrupted Upload');
    form.append('file', new Blob([readFileSync(clip)], { type: 'video/mp4' }), 'long-clip.mp4');
    const upload = await fetch(`${base}/api/admin/videos`, { method: 'POST', headers: { Authorization: `Bearer ${accessToken}` }, body: form });
    expect(upload.status).toBe(202);
    const { id, job_id: jobId } = (await upload.json()) as { id: number; job_id: number };

    // Wait until ffmpeg has written segments of the first rendition, then kill everything at once.
    const incoming = path.join(dataDir, 'media', 'videos', '.incoming', String(jobId));
    for (let i = 0; i < 400 && !(existsSync(incoming) && readdirSync(incoming).some((f) => f.endsWith('.ts'))); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(readdirSync(incoming).some((f) => f.endsWith('.ts'))).toBe(true);
    const killed = once(server as ChildProcess, 'exit');
    process.kill(-((server as ChildProcess).pid as number), 'SIGKILL');
    await killed;

    base = await start();
    let status = 0;
    for (let i = 0; i < 600 && status !== 200; i++) {
      status = (await fetch(`${base}/api/videos/${id}`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    // The handler publishes the video, then the runner records the job's end: a moment apart.
    const readJob = async () =>
      ((await (await fetch(`${base}/api/admin/jobs/${jobId}`, { headers: { Authorization: `Bearer ${accessToken}` } })).json()) as { data: { state: string; progress: number } }).data;
    let job = await readJob();
    for (let i = 0; i < 100 && job.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = await readJob();
    }
    expect(job).toMatchObject({ state: 'done', progress: 100 });
    const video = (await (await fetch(`${base}/api/videos/${id}`)).json()) as { duration: number; stream_path: string };
    expect(video.duration).toBe(12);
    const { secureUrl } = (await (await fetch(`${base}/api/video/secure?path=${encodeURIComponent(video.stream_path)}`)).json()) as { secureUrl: string };
    expect(await (await fetch(`${base}${secureUrl}`)).text()).toContain('720p.m3u8');
    expect(readdirSync(path.join(dataDir, 'media', 'videos', '.incoming'))).toEqual([]);

    // Files only the server can read: DATA_DIR itself (nothing in it can be reached by another user), the secrets
    // and the sources always; in the embedded set-up nothing it holds can be written by others, and the
    // database's files are owner-only (PGlite makes a new database's files 0666; on a server, the published
    // renditions stay readable for the container stack's nginx).
    const modeOf = (p: string) => statSync(p).mode & 0o777;
    const filesOf = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f));
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'secrets.json'))).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'media', 'sources'))).toBe(0o700);
    if (!onPostgresServer()) {
      const database = filesOf(path.join(dataDir, 'pglite'));
      expect(database.length).toBeGreaterThan(500);
      expect(database.filter((f) => modeOf(f) & 0o022)).toEqual([]);
      // All but the few PostgreSQL rewrites at run time (its relation cache files, 0644, never writable).
      expect(database.filter((f) => modeOf(f) & 0o077).length).toBeLessThan(10);
      expect(filesOf(path.join(dataDir, 'media')).filter((f) => modeOf(f) & 0o077)).toEqual([]);
    }
  }, 240_000);

  it('moves the media to a bucket with media:migrate killed mid-copy and run again, then serves it from there', async () => {
    // The server stopped (the embedded database belongs to one process at a time; on a server database the
    // command runs beside it: test/media-migrate.e2e-spec.ts).
    await stop();
    const settings = testS3Settings();
    const bucket = new S3MediaStore(settings);
    const { MEDIA_STORE: _disk, ...bucketEnv } = s3Env(settings);
    env = { ...env, ...bucketEnv };
    // Beside the ingested video, a folder of 24 MiB that sorts first, so that the kill lands in the middle of it.
    const media = path.join(dataDir, 'media');
    const padding = path.join(media, 'videos', '0-padding');
    mkdirSync(padding, { recursive: true });
    for (let i = 0; i < 12; i++) writeFileSync(path.join(padding, `seg_${String(i).padStart(3, '0')}.ts`), randomBytes(2 * 1024 * 1024));
    const before = new Map(storedKeys(media, ['videos', 'thumbs']).map((key) => [key, readFileSync(path.join(media, key))]));
    const sources = storedKeys(media, ['sources']).length;
    expect(sources).toBeGreaterThan(0);
    const cli = [path.join(backend, 'dist', 'media', 'media-migrate.cli.js'), '--to', 's3', '--grace', '0'];

    try {
      const first = spawn(process.execPath, cli, { env: { ...process.env, ...env }, stdio: 'ignore', detached: true });
      const exited = once(first, 'exit');
      let copied: string[] = [];
      for (let i = 0; i < 1200 && copied.length < 4 && first.exitCode === null; i++) {
        // (No bucket until the command has made it.)
        copied = (await bucketKeys(settings).catch(() => [] as string[])).filter((key) => key.startsWith('videos/0-padding/'));
        if (copied.length < 4) await new Promise((r) => setTimeout(r, 50));
      }
      process.kill(-(first.pid as number), 'SIGKILL');
      const [, signal] = await exited;
      expect(signal).toBe('SIGKILL');
      expect(copied.length).toBeGreaterThanOrEqual(4);
      expect(copied.length).toBeLessThan(12);

      // Run again: what the killed run copied is verified, not copied again; everything else is.
      const again = spawnSync(process.execPath, cli, { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
      expect(again.stderr).not.toMatch(/not moved/);
      expect(again.status).toBe(0);
      const summary = /(\d+) video\(s\) moved to the bucket: (\d+) object\(s\) copied \([^)]*\), (\d+) already there/.exec(again.stdout);
      expect(summary).not.toBeNull();
      const [, moved, fresh, already] = (summary as RegExpExecArray).map(Number);
      expect(moved).toBe(2);
      expect(already).toBeGreaterThanOrEqual(copied.length);
      expect(fresh + already).toBe(before.size + sources);
      // Every object in the bucket with its bytes; none left on disk.
      for (const [key, bytes] of before) expect(sha256((await bucket.readBytes(key)))).toBe(sha256(bytes));
      expect(storedKeys(media)).toEqual([]);

      // The server, started again, reads the moved video from the bucket.
      const base = await start();
      const masterKey = [...before.keys()].find((key) => key.endsWith('/index.m3u8')) as string;
      const secure = await fetch(`${base}/api/video/secure?path=${encodeURIComponent(`/${masterKey}`)}`);
      expect(secure.status).toBe(200);
      const { secureUrl } = (await secure.json()) as { secureUrl: string };
      const master = await fetch(`${base}${secureUrl}`);
      expect(master.status).toBe(200);
      expect(await master.text()).toBe(before.get(masterKey)?.toString());
      const poster = await fetch(`${base}/${masterKey.replace(/^videos\//, 'thumbs/').replace(/index\.m3u8$/, 'poster.jpg')}`);
      expect(poster.status).toBe(200);
      expect(Buffer.from(await poster.arrayBuffer()).length).toBeGreaterThan(1000);
    } finally {
      await dropBucket(settings);
      bucket.client.destroy();
    }
  }, 300_000);

  it('drains on SIGTERM: not ready at once yet still answering, an upload in flight finished, then the listener closed and exit 0', async () => {
    await stop();
    env = { ...env, SHUTDOWN_DRAIN_MS: '1500' };
    let base = await start();
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'keeper of the keys 1' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const clip = readFileSync(testClip(path.join(dataDir, 'drain-clip.mp4'), { seconds: 2, size: '320x240', rate: 25 }));
    const boundary = 'drain-boundary-7d1f';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nDrained Upload\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`),
      clip,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const url = new URL(`${base}/api/admin/videos`);
    let upload!: http.ClientRequest;
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      upload = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      upload.on('error', reject);
    });
    // The upload begins, then the signal comes.
    const pieces = 10;
    const piece = Math.ceil(body.length / pieces);
    upload.write(body.subarray(0, piece));
    await new Promise((r) => setTimeout(r, 200));
    const exited = once(server as ChildProcess, 'exit');
    (server as ChildProcess).kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));

    // Draining: not ready, still live, still answering (each answer closing its connection).
    const ready = await fetch(`${base}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ error: 'Not ready: this process is shutting down', errorCode: 'NOT_READY', statusCode: 503 });
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
    const listing = await fetch(`${base}/api/videos`);
    expect([listing.status, listing.headers.get('connection')]).toEqual([200, 'close']);

    // The rest of the upload, slowly, past the drain: the listener closes meanwhile, the upload is answered.
    for (let i = 1; i < pieces; i++) {
      upload.write(body.subarray(i * piece, (i + 1) * piece));
      await new Promise((r) => setTimeout(r, 200));
    }
    upload.end();
    const { status, text } = await answered;
    expect(status).toBe(202);
    const { job_id: jobId } = JSON.parse(text) as { job_id: number };
    const [code] = await exited;
    expect(code).toBe(0);
    await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();

    // The upload was kept: its job is there after a restart.
    base = await start();
    const job = await fetch(`${base}/api/admin/jobs/${jobId}`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(job.status).toBe(200);
  }, 180_000);

  it('refuses to start on a data directory others can write, saying how to fix it', () => {
    const unsafe = mkdtempSync(path.join(tmpdir(), 'unsafe-data-'));
    try {
      chmodSync(unsafe, 0o777);
      const run = spawnSync(process.execPath, [path.join(backend, 'dist', 'main.js')], {
        env: { ...process.env, ...env, DATA_DIR: unsafe, PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`DATA_DIR ${unsafe} can be written by users other than its owner (mode 0777)`);
      expect(run.stderr).toContain(`chmod 700 ${unsafe}`);
      expect(readdirSync(unsafe)).toEqual([]);
    } finally {
      rmSync(unsafe, { recursive: true, force: true });
    }
  });
});
