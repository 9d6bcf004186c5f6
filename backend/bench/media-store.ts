import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import autocannon from 'autocannon';
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { ffmpegPath } from '../src/media/ffmpeg.runner';
import { INGEST_KIND } from '../src/media/ingest.service';
import { mediaContextModule } from '../src/media/media-context';
import { signedPath } from '../src/media/signing';
import { StorageService } from '../src/media/storage.service';
import { S3MediaStore } from '../src/media/store/s3-media-store';
import { JobRunner } from '../src/jobs/job-runner.service';
import { JobsService } from '../src/jobs/jobs.service';
import { freePort } from './free-port';
import { API_MAIN, RESULTS_DIR } from './paths';
import { waitUntilReady } from './ready';

/**
 * `npm run bench:media` (issue #32, point 7): the bucket against the disk, measured in one run, on a real Ceph RGW
 * of its own (scripts/s3/start-ceph-s3.sh in /tmp/hunktube-s3-bench, S3 on 127.0.0.1:7491, 8 GiB of memory store):
 *
 * 1. ingest wall time: the same clip through the whole pipeline with MEDIA_STORE=disk and =s3, alternating
 *    (BENCH_MEDIA_ROUNDS, 3, each; the means compared; target ≤ 1.15×);
 * 2. the edge: segments through nginx from the media folder and from the bucket, the first fetch of each of
 *    BENCH_EDGE_SEGMENTS distinct 1 MB segments (cold) and autocannon on one (warm; target ≥ 0.9×);
 * 3. the API's resident memory (sampled every 100 ms from /proc) while a BENCH_UPLOAD_MB (2,048) MB upload
 *    streams through it to the bucket: it must stay bounded, whatever the file's size.
 *
 * Results go to bench-results/media-latest.json.
 */
const REPO = path.resolve(__dirname, '../../..');
const KEY = 'bench-media-signing-key-0123';
const S3_DIR = '/tmp/hunktube-s3-bench';

interface S3Env {
  endpoint: string;
  accessKey: string;
  secretKey: string;
}

function startCeph(): S3Env {
  const run = spawnSync(path.join(REPO, 'scripts/s3/start-ceph-s3.sh'), {
    encoding: 'utf8',
    env: { ...process.env, S3LAB_DIR: S3_DIR, S3LAB_RGW_PORT: '7491', S3LAB_MON_PORT: '3391', S3LAB_MEMSTORE_BYTES: String(8 * 1024 ** 3), S3LAB_FRESH: '1' },
  });
  if (run.status !== 0) throw new Error(`Ceph RGW did not start:\n${run.stderr}`);
  const vars = Object.fromEntries(run.stdout.split('\n').map((l) => l.split('=')).filter((p) => p.length === 2));
  return { endpoint: vars.S3_ENDPOINT, accessKey: vars.S3_ACCESS_KEY, secretKey: vars.S3_SECRET_KEY };
}

const stopCeph = () => spawnSync(path.join(REPO, 'scripts/s3/stop-ceph-s3.sh'), { env: { ...process.env, S3LAB_DIR: S3_DIR }, stdio: 'ignore' });

const s3Env = (s3: S3Env, bucket: string): Record<string, string> => ({
  MEDIA_STORE: 's3', S3_ENDPOINT: s3.endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_FORCE_PATH_STYLE: 'true',
});

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const seconds = (ms: number) => Number((ms / 1000).toFixed(2));

/** One ingest of `clip` through the pipeline (job claim to published video), in seconds. */
async function ingestOnce(clip: string, env: Record<string, string>): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-media-ingest-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent', INGEST_WORKER: 'false', ...env });
  const app = await NestFactory.createApplicationContext(mediaContextModule(config), { logger: false });
  try {
    const db = app.get(DataSource);
    const [{ id }] = await db.query<{ id: number }[]>(`INSERT INTO videos (slug, url, title, status) VALUES ('bench', '/bench/clip.mp4', 'Bench', 'processing') RETURNING id`);
    await app.get(StorageService).store.writeFile('sources/bench/clip.mp4', clip);
    await app.get(JobsService).enqueue(Number(id), INGEST_KIND, { source: 'bench/clip.mp4' });
    const started = performance.now();
    await app.get(JobRunner).drain();
    const elapsed = performance.now() - started;
    const [job] = await db.query<{ state: string; error: string | null }[]>('SELECT state, error FROM ingest_jobs');
    if (job.state !== 'done') throw new Error(`The bench ingest ended ${job.state}: ${job.error}`);
    return elapsed;
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchIngest(s3: S3Env) {
  const clipSeconds = Number(process.env.BENCH_MEDIA_INGEST_SECONDS ?? 20);
  const rounds = Number(process.env.BENCH_MEDIA_ROUNDS ?? 3);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-media-clip-'));
  const clip = path.join(dir, 'clip.mp4');
  execFileSync(ffmpegPath(), [
    '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${clipSeconds}`, '-f', 'lavfi', '-i', `sine=duration=${clipSeconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip,
  ]);
  const disk: number[] = [];
  const bucket: number[] = [];
  for (let round = 0; round < rounds; round++) {
    disk.push(await ingestOnce(clip, {}));
    const name = `bench-ingest-${randomBytes(4).toString('hex')}`;
    bucket.push(await ingestOnce(clip, s3Env(s3, name)));
    console.log(`  ingest round ${round + 1}: disk ${seconds(disk[round])} s, bucket ${seconds(bucket[round])} s`);
  }
  rmSync(dir, { recursive: true, force: true });
  return { clipSeconds, rounds, diskSeconds: disk.map(seconds), bucketSeconds: bucket.map(seconds), ratio: Number((mean(bucket) / mean(disk)).toFixed(3)) };
}

async function startNginx(work: string, store: 'disk' | 's3', media: string, s3?: { host: string; bucket: string }): Promise<{ base: string; stop: () => void }> {
  const { renderNginxConfig } = (await import(pathToFileURL(path.join(REPO, 'docker/nginx/render-config.mjs')).href)) as {
    renderNginxConfig: (options: object) => string;
  };
  const html = path.join(work, 'html');
  mkdirSync(html, { recursive: true });
  writeFileSync(path.join(html, 'index.html'), '<!doctype html><title>bench</title>');
  const nginxPort = await freePort();
  const conf = renderNginxConfig({ work, key: KEY, apiPort: await freePort(), nginxPort, media, html, store, s3: s3 ? { ...s3, prefix: '' } : null });
  spawnSync('chmod', ['-R', 'a+rX', work]);
  const nginx = spawn('nginx', ['-c', conf, '-e', path.join(work, 'error.log'), '-g', 'daemon off;'], { stdio: 'inherit' });
  const base = `http://127.0.0.1:${nginxPort}`;
  for (let i = 0; i < 100 && !(await fetch(`${base}/nginx-health`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 100));
  return { base, stop: () => nginx.kill('SIGQUIT') };
}

async function benchEdge(s3: S3Env) {
  const count = Number(process.env.BENCH_EDGE_SEGMENTS ?? 50);
  const seconds_ = Number(process.env.BENCH_EDGE_SECONDS ?? 8);
  const work = mkdtempSync(path.join(tmpdir(), 'bench-media-edge-'));
  const media = path.join(work, 'media');
  const bucketName = `bench-edge-${randomBytes(4).toString('hex')}`;
  const bucket = new S3MediaStore({ endpoint: s3.endpoint, region: 'us-east-1', bucket: bucketName, accessKey: s3.accessKey, secretKey: s3.secretKey, forcePathStyle: true, prefix: '' });
  await bucket.prepareBucket();
  const folder = '/videos/bench/edge/';
  const names = Array.from({ length: count }, (_, i) => `720p_${String(i).padStart(3, '0')}.ts`);
  for (const name of names) {
    const bytes = randomBytes(1024 * 1024);
    mkdirSync(path.join(media, folder), { recursive: true });
    writeFileSync(path.join(media, folder, name), bytes);
    await bucket.write(`${folder.slice(1)}${name}`, bytes);
  }
  // nginx's workers read the media folder as another user.
  spawnSync('chmod', ['-R', 'a+rX', work]);
  const diskEdge = await startNginx(path.join(work, 'disk'), 'disk', media);
  const bucketEdge = await startNginx(path.join(work, 's3'), 's3', media, { host: new URL(s3.endpoint).host, bucket: bucketName });
  const expires = Math.floor(Date.now() / 1000) + 3600;
  const url = (base: string, name: string) => `${base}${signedPath(folder, name, expires, KEY)}`;
  try {
    const firstFetches = async (base: string) => {
      const started = performance.now();
      for (const name of names) {
        const res = await fetch(url(base, name));
        if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
        await res.arrayBuffer();
      }
      return performance.now() - started;
    };
    // Connections and the fetch client warmed on both first; then the bucket's edge (cold: nothing cached) and the
    // disk's, each segment fetched once.
    for (const base of [diskEdge.base, bucketEdge.base]) await fetch(`${base}/nginx-health`).then((r) => r.text());
    const coldBucket = await firstFetches(bucketEdge.base);
    const coldDisk = await firstFetches(diskEdge.base);
    const warm = async (base: string) => {
      const result = await autocannon({ url: url(base, names[0]), connections: 10, duration: seconds_ });
      if (result.non2xx || result.errors) throw new Error(`the warm edge answered ${result.non2xx} non-2xx and ${result.errors} errors`);
      return { requestsPerSecond: Math.round(result.requests.average), megabytesPerSecond: Math.round(result.throughput.average / 1024 / 1024) };
    };
    const warmDisk = await warm(diskEdge.base);
    const warmBucket = await warm(bucketEdge.base);
    return {
      segments: count,
      segmentBytes: 1024 * 1024,
      coldSeconds: { disk: seconds(coldDisk), bucket: seconds(coldBucket) },
      coldRatio: Number((coldDisk / coldBucket).toFixed(3)),
      warm: { disk: warmDisk, bucket: warmBucket },
      warmRatio: Number((warmBucket.requestsPerSecond / warmDisk.requestsPerSecond).toFixed(3)),
    };
  } finally {
    diskEdge.stop();
    bucketEdge.stop();
    bucket.client.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The resident set of a process, in MB, from /proc. */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function benchUpload(s3: S3Env) {
  const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 2048);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-media-upload-'));
  const port = await freePort();
  const env = {
    ...process.env, ...s3Env(s3, `bench-upload-${randomBytes(4).toString('hex')}`), NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1',
    DATA_DIR: dir, PUBLIC_URL: `http://127.0.0.1:${port}`, JWT_SECRET: 'b'.repeat(40), MEDIA_SIGNING_KEY: KEY, LOG_LEVEL: 'warn', DEMO_SEED: 'false',
    INGEST_WORKER: 'false', RATE_LIMIT_AUTH: '0', RATE_LIMIT_WRITE: '0', MAX_UPLOAD_BYTES: String((megabytes + 16) * 1024 * 1024),
    ADMIN_EMAIL: 'operator@example.com', ADMIN_PASSWORD: 'bench uploads a long file', DATABASE_URL: '', REDIS_URL: '',
  };
  const api: ChildProcess = spawn(process.execPath, [API_MAIN], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitUntilReady(api, `http://127.0.0.1:${port}/api/health`, 'API');
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'operator@example.com', password: 'bench uploads a long file' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const pid = api.pid as number;
    const before = rssOf(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);
    const started = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      const boundary = `bench${Date.now()}`;
      const req = http.request(
        { host: '127.0.0.1', port, path: '/api/admin/videos', method: 'POST', headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBench Upload\r\n`);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
      // An MP4's first box (what the upload's check reads), then the rest of the file.
      const ftyp = Buffer.alloc(32);
      ftyp.writeUInt32BE(32, 0);
      ftyp.write('ftypisom', 4, 'latin1');
      const chunk = randomBytes(1024 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < megabytes) {
          sent++;
          if (!req.write(sent === 1 ? Buffer.concat([ftyp, chunk.subarray(32)]) : chunk)) return void req.once('drain', pump);
        }
        req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    const elapsed = performance.now() - started;
    clearInterval(sampler);
    if (status !== 202) throw new Error(`The bench upload was answered ${status}`);
    return { megabytes, seconds: seconds(elapsed), rssBeforeMB: Math.round(before), rssPeakMB: Math.round(peak), rssGrowthMB: Math.round(peak - before) };
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (spawnSync('nginx', ['-v']).error) throw new Error('The media bench needs nginx on the PATH (apt-get install nginx-light)');
  const s3 = startCeph();
  try {
    console.log('Media store bench: the bucket (Ceph RGW on this machine) against the disk');
    const ingest = await benchIngest(s3);
    console.log(`Ingest of a ${ingest.clipSeconds} s 720p clip: disk ${ingest.diskSeconds.join(', ')} s, bucket ${ingest.bucketSeconds.join(', ')} s: ${ingest.ratio}x (target ≤ 1.15x)`);
    const edge = await benchEdge(s3);
    console.log(
      `Edge, ${edge.segments} segments of 1 MB fetched once: disk ${edge.coldSeconds.disk} s, bucket (cold) ${edge.coldSeconds.bucket} s (${edge.coldRatio}x the disk's speed); ` +
        `one segment, warm: disk ${edge.warm.disk.requestsPerSecond} req/s (${edge.warm.disk.megabytesPerSecond} MB/s), bucket ${edge.warm.bucket.requestsPerSecond} req/s ` +
        `(${edge.warm.bucket.megabytesPerSecond} MB/s): ${edge.warmRatio}x (target ≥ 0.9x)`,
    );
    const upload = await benchUpload(s3);
    console.log(`Upload of ${upload.megabytes} MB to the bucket through the API: ${upload.seconds} s; API resident memory ${upload.rssBeforeMB} MB before, ${upload.rssPeakMB} MB at most (+${upload.rssGrowthMB} MB)`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(path.join(RESULTS_DIR, 'media-latest.json'), JSON.stringify({ when: new Date().toISOString(), ingest, edge, upload }, null, 2));
  } finally {
    stopCeph();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
