import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { ADDRESS_SETTINGS, describeStack, interpolate, PROCESS_SETTINGS, readCompose, stackServices } from '../../scripts/stack/description.mjs';
import { renderNginxConfig } from '../../docker/nginx/render-config.mjs';
import { testClip } from './helpers/clips';
import { crowdAddresses, crowdLoad, statusesOf, viewsFrom } from '../bench/crowd';
import { type RunningStack, startStack } from '../bench/stack-process';
import { testS3 } from './helpers/s3';
import { createServerDatabase } from './helpers/test-app';
import { TcpProxyProcess, targetOf } from './helpers/tcp-proxy';

/**
 * `npm run stack` (scripts/stack/stack.mjs): the compose file's stack as plain processes, started here as an
 * operator starts it, then put through what operators meet, each under a steady load from a crowd of addresses
 * through nginx: an API process killed, a worker killed mid-ingest, Redis restarted, PostgreSQL cut and back (a
 * TCP proxy between the stack and the server), and a rolling deploy of a build that carries a migration.
 */
const repo = path.resolve(__dirname, '../..');
const backend = path.join(repo, 'backend');

describe('npm run stack runs what the compose file runs', () => {
  const compose = readCompose();
  const vars = { JWT_SECRET: 'j'.repeat(40), MEDIA_SIGNING_KEY: 'm'.repeat(40), S3_ACCESS_KEY: 'access', S3_SECRET_KEY: 'secret-key', HTTP_PORT: '8080' };
  const local = { dir: '/tmp/stack', databaseUrl: 'postgres://u@127.0.0.1:5432/stack', redisUrl: 'redis://127.0.0.1:6390', s3Endpoint: 'http://127.0.0.1:7490', apiPort: 3101, workerMetricsPort: 9465, statusPort: 8081 };
  const stack = describeStack(compose, { vars, local, api: 3, workers: 2 });
  const composeEnv = (service: string) =>
    Object.fromEntries(Object.entries(compose.services[service].environment as Record<string, string>).map(([k, v]) => [k, interpolate(String(v ?? ''), vars)]));

  it('starts every service of the compose file but the monitoring profile', () => {
    expect(stackServices(compose).sort()).toEqual(['api', 'minio', 'nginx', 'postgres', 'redis', 'worker']);
    expect(stack.processes.map((p: { name: string }) => p.name)).toEqual(['api-1', 'api-2', 'api-3', 'worker-1', 'worker-2']);
  });

  it('gives each process its service’s settings; only the containers’ addresses and the per-process folders differ', () => {
    for (const p of stack.processes as { service: string; env: Record<string, string>; command: string[] }[]) {
      const expected = composeEnv(p.service);
      const differing = Object.keys({ ...expected, ...p.env }).filter((key) => expected[key] !== p.env[key]);
      expect(differing.every((key) => [...ADDRESS_SETTINGS, ...PROCESS_SETTINGS].includes(key)), differing.join()).toBe(true);
      for (const key of ADDRESS_SETTINGS) expect(p.env[key], key).not.toMatch(/postgres:5432|redis:6379|minio:9000|172\.28\./);
      expect(p.env).toMatchObject({ DATABASE_URL: local.databaseUrl, REDIS_URL: local.redisUrl, S3_ENDPOINT: local.s3Endpoint, MEDIA_STORE: 's3', NODE_ENV: 'production' });
      // Nothing the compose file sets is left out.
      expect(Object.keys(p.env)).toEqual(expect.arrayContaining(Object.keys(expected)));
      if (p.service === 'worker') expect(p.command).toEqual(compose.services.worker.command);
    }
    expect(composeEnv('api')).toMatchObject({ DATABASE_URL: 'postgres://app:app@postgres:5432/app', REDIS_URL: 'redis://redis:6379', S3_ENDPOINT: 'http://minio:9000', INGEST_WORKER: 'false', SHUTDOWN_DRAIN_MS: '5000' });
    expect(stack.processes[0].env).toMatchObject({ INGEST_WORKER: 'false', SHUTDOWN_DRAIN_MS: '5000', PUBLIC_URL: 'http://localhost:8080' });
  });

  it('renders nginx from the same template and settings, with every API process upstream', () => {
    expect(stack.nginx.env).toEqual({ ...composeEnv('nginx'), S3_EDGE_HOST: '127.0.0.1:7490' });
    const work = mkdtempSync(path.join(tmpdir(), 'stack-nginx-'));
    try {
      renderNginxConfig({ work, apiPorts: [3101, 3102, 3103], nginxPort: 8080, media: work, html: work, env: stack.nginx.env, statusPort: 8081 });
      const conf = readFileSync(path.join(work, 'conf.d/default.conf'), 'utf8');
      expect(conf).toContain('server 127.0.0.1:3101 max_fails=0;\n    server 127.0.0.1:3102 max_fails=0;\n    server 127.0.0.1:3103 max_fails=0;');
      expect(conf).toContain(`secure_link_md5 "$secure_link_expires$dir ${vars.MEDIA_SIGNING_KEY}";`);
      expect(conf).not.toContain('${');
      expect(readFileSync(path.join(work, 'conf.d/media/s3-common.inc'), 'utf8')).toContain('127.0.0.1:7490');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

describe('the stack under load (npm run stack on the PostgreSQL server)', () => {
  const ADMIN = { email: 'stack-admin@example.com', password: 'rolling rolling rolling 1' };
  let stack: RunningStack;
  let dir: string;
  let proxy: TcpProxyProcess;
  let dropDatabase: () => Promise<void>;
  let databaseUrl: string;
  let base: string;
  let bucket: string;
  let s3: ReturnType<typeof testS3>;
  let ids: number[];
  const state = () => stack.state();
  const apiBase = (name: string) => `http://127.0.0.1:${state().processes[name].port}`;

  /** A video's views as an API process answers them (stored plus buffered), bypassing nginx's micro-cache. */
  const viewsOf = async (id: number) => ((await (await fetch(`${apiBase('api-2')}/api/videos/${id}`)).json()) as { views: number }).views;

  /** The read mix of a watch session: a listing page, a video, its related videos, and a rendered watch page. */
  const readLoad = (seconds: number, block: number) =>
    crowdLoad(
      {
        url: base,
        connections: 16,
        overallRate: 150,
        duration: seconds,
        requests: [
          { method: 'GET', path: '/api/videos?page=1' },
          { method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/videos/${ids[Math.floor(Math.random() * ids.length)]}` }) },
          { method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/videos/${ids[Math.floor(Math.random() * ids.length)]}/related` }) },
          { method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/videos?page=${1 + Math.floor(Math.random() * 3)}&sort=most-viewed` }) },
        ],
      },
      crowdAddresses(block, 200),
    );

  beforeAll(async () => {
    // The stack runs the built server (and builds it when its sources changed, as `npm start` does); so does the seed.
    execFileSync(process.execPath, [path.join(repo, 'scripts/build-state.mjs'), 'ensure'], { stdio: 'inherit' });
    s3 = testS3();
    bucket = `hunktube-stack-${randomBytes(4).toString('hex')}`;
    ({ databaseUrl, dropDatabase } = await createServerDatabase(process.env.TEST_DATABASE_URL as string));
    // The catalogue, made before the stack starts (the CLI runs the migrations): 40 published videos, metadata only.
    execFileSync(process.execPath, [path.join(backend, 'dist', 'database', 'seeds', 'seed-catalog.cli.js'), '--videos', '40'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: 'pipe',
    });
    const url = new URL(databaseUrl);
    proxy = await TcpProxyProcess.start(targetOf(databaseUrl));
    url.host = `127.0.0.1:${proxy.port}`;
    stack = await startStack({
      api: 2,
      workers: 2,
      env: { STACK_DATABASE_URL: url.toString(), S3_BUCKET: bucket, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
      timeoutMs: 480_000,
    });
    ({ dir, base } = stack);
    const { data } = (await (await fetch(`${apiBase('api-1')}/api/videos?page=1`)).json()) as { data: { id: number }[] };
    ids = data.map((video) => video.id);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
    await proxy?.close();
    await dropDatabase?.();
    // STACK_TEST_KEEP=1 keeps the stack's folder (logs, nginx's access and error logs) to look into a failure.
    if (dir && !process.env.STACK_TEST_KEEP) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  // A failed case shows what the processes logged as errors (a 500's stack), which CI keeps nothing else of.
  beforeEach(({ onTestFailed }) => onTestFailed(() => {
    if (!dir) return;
    for (const [name, p] of Object.entries(state().processes) as [string, { log?: string }][]) {
      if (!p.log || !existsSync(p.log) || name === 'redis' || name === 'nginx') continue;
      const lines = readFileSync(p.log, 'utf8').split('\n');
      // The processes log JSON lines (an error is level 50 or 60, its stack inside); the last five of them.
      const errors = lines.filter((line) => /^\{.*"level":(50|60)\b/.test(line));
      if (errors.length) console.error(`--- ${name}: ${errors.length} errors logged in ${p.log}; the last ones:\n${errors.slice(-5).join('\n')}`);
    }
  }));

  it('serves the site through nginx from 2 API processes and 2 workers, their ids in stack.json', async () => {
    const { processes, url } = state();
    expect(Object.keys(processes).sort()).toEqual(['api-1', 'api-2', 'nginx', 'redis', 'worker-1', 'worker-2']);
    for (const { pid } of Object.values(processes)) expect(alive(pid)).toBe(true);
    expect(url).toBe(`http://localhost:${new URL(base).port}`);
    expect(readFileSync(stack.output, 'utf8')).toContain(`HunkTube stack: ${url}  (2 API processes, 2 workers)`);
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
    expect(ids.length).toBeGreaterThanOrEqual(20);
    for (const name of ['api-1', 'api-2']) expect((await fetch(`${apiBase(name)}/api/health/ready`)).status).toBe(200);
  });

  it('loses no GET and no view when an API process is killed under load', async () => {
    const video = ids[0];
    const before = await viewsOf(video);
    const viewers = crowdAddresses(10, 150);
    const killed = state().processes['api-1'].pid;
    const load = readLoad(12, 1);
    const views = viewsFrom(base, video, viewers, 8000);
    await sleep(3000);
    process.kill(-killed, 'SIGKILL');
    const [result, statuses] = await Promise.all([load, views]);
    expect(statusesOf(result)).toEqual({ 200: expect.any(Number) });
    expect(result.errors).toBe(0);
    expect(result.requests.total).toBeGreaterThan(500);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // Every viewer counted exactly once: none lost with the process, none counted twice by the retry.
    await until('the views', () => viewsOf(video), (views) => views >= before + viewers.length);
    await sleep(6000);
    expect(await viewsOf(video)).toBe(before + viewers.length);
    // compose's `restart: unless-stopped`: the stack started it again.
    await until('api-1 again', () => state().processes['api-1'], (p) => p.pid !== killed && p.restarts === 1);
    await until('api-1 ready', async () => (await fetch(`${apiBase('api-1')}/api/health/ready`).catch(() => null))?.status, (status) => status === 200);
  }, 120_000);

  it('finishes an ingest whose worker is killed mid-transcode on another worker: one video, no stray objects', async () => {
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const clip = testClip(path.join(dir, 'clip.mp4'), { seconds: 20, size: '1280x720' });
    const form = new FormData();
    form.append('title', 'Killed Worker Clip');
    form.append('file', new Blob([readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4');
    const upload = await fetch(`${base}/api/admin/videos`, { method: 'POST', headers: { Authorization: `Bearer ${accessToken}` }, body: form });
    expect(upload.status).toBe(202);
    const { id, job_id: jobId } = (await upload.json()) as { id: number; job_id: number };

    // The worker whose scratch holds segments of this job is mid-transcode: kill it and its ffmpeg.
    const segmentsIn = (worker: string) => {
      const hls = path.join(dir, 'data', worker, 'scratch', 'jobs', String(jobId), 'hls');
      return existsSync(hls) && readdirSync(hls, { recursive: true, encoding: 'utf8' }).some((file) => file.endsWith('.ts'));
    };
    const busy = await until('a worker transcoding', () => ['worker-1', 'worker-2'].find(segmentsIn), (worker) => worker !== undefined, 120_000);
    const killed = state().processes[busy as string].pid;
    process.kill(-killed, 'SIGKILL');

    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const job = await until(
        'the job',
        async () => (await db.query<{ state: string; attempts: number; locked_by: string | null }>('SELECT state, attempts, locked_by FROM ingest_jobs WHERE id = $1', [jobId])).rows[0],
        (j) => j.state === 'done' || j.state === 'failed',
        180_000,
      );
      // The second attempt, by another process than the one killed.
      expect(job).toMatchObject({ state: 'done', attempts: 2 });
      expect(job.locked_by ?? '').not.toContain(`:${killed}:`);
      const { rows } = await db.query(`SELECT id FROM videos WHERE title = 'Killed Worker Clip'`);
      expect(rows).toEqual([{ id }]);
    } finally {
      await db.end();
    }
    const video = (await (await fetch(`${apiBase('api-2')}/api/videos/${id}`)).json()) as { id: number; duration: number };
    expect(video).toMatchObject({ id, duration: 20 });

    // In the bucket: each rendition's segments once, exactly those its playlist names; nothing left of the first try.
    const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKey, secretAccessKey: s3.secretKey } });
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'videos/', ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((object) => object.Key as string));
      token = page.NextContinuationToken;
    } while (token);
    client.destroy();
    const playlists = keys.filter((key) => key.endsWith('.m3u8'));
    expect(playlists.length).toBeGreaterThanOrEqual(3);
    const named = new Set<string>();
    for (const key of playlists) {
      const body = await (await fetch(`${s3.endpoint}/${bucket}/${key}`)).text();
      // A variant playlist names its segments; the master names the variants.
      for (const line of body.split('\n')) if (line.trim().endsWith('.ts')) named.add(path.posix.join(path.posix.dirname(key), line.trim()));
    }
    expect(named.size).toBeGreaterThanOrEqual(8);
    expect(keys.filter((key) => key.endsWith('.ts')).sort()).toEqual([...named].sort());
    await until('the killed worker again', () => state().processes[busy as string], (p) => p.pid !== killed);
  }, 300_000);

  it('keeps answering and counting when Redis restarts', async () => {
    const video = ids[1];
    const before = await viewsOf(video);
    const viewers = crowdAddresses(11, 100);
    const redis = state().processes.redis.pid;
    const load = readLoad(12, 2);
    const views = viewsFrom(base, video, viewers, 8000);
    await sleep(2000);
    process.kill(redis, 'SIGTERM');
    const [result, statuses] = await Promise.all([load, views]);
    expect(statusesOf(result)).toEqual({ 200: expect.any(Number) });
    expect(result.errors).toBe(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await until('redis again', () => state().processes.redis, (p) => p.pid !== redis);
    // What waited in Redis (saved as it stopped) and what each process counted on its own meanwhile: all written.
    await until('the views', () => viewsOf(video), (views) => views >= before + viewers.length, 60_000);
    await sleep(6000);
    expect(await viewsOf(video)).toBe(before + viewers.length);
  }, 120_000);

  it('answers from memory, never 500, and counts every view when PostgreSQL goes away and comes back', async () => {
    const video = ids[2];
    const before = await viewsOf(video);
    const viewers = crowdAddresses(12, 100);
    const load = readLoad(14, 3);
    const views = viewsFrom(base, video, viewers, 10_000);
    await sleep(3000);
    await proxy.cut();
    await sleep(5000);
    await proxy.restore();
    const [result, statuses] = await Promise.all([load, views]);
    // Kept answers (with X-Stale) or nginx's micro-cache; 503 with Retry-After for what neither holds; never 5xx else.
    const codes = statusesOf(result);
    expect(Object.keys(codes).filter((code) => code !== '200' && code !== '503')).toEqual([]);
    expect(codes['200']).toBeGreaterThan((codes['503'] ?? 0) * 4);
    expect(result.errors).toBe(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await until('the views', () => viewsOf(video), (views) => views >= before + viewers.length, 60_000);
    await sleep(6000);
    expect(await viewsOf(video)).toBe(before + viewers.length);
  }, 120_000);

  it('rolls a new build with a migration through every process with no 5xx', async () => {
    // The new build: this one plus an expand-only migration (a nullable column the running code never names).
    const next = path.join(backend, `dist-roll-${process.pid}`);
    cpSync(path.join(backend, 'dist'), next, { recursive: true });
    try {
      writeFileSync(
        path.join(next, 'database', 'migrations', '1899000000000-rollout-probe.js'),
        `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class RolloutProbe1899000000000 {
  constructor() { this.name = 'RolloutProbe1899000000000'; }
  async up(q) { await q.query('ALTER TABLE videos ADD COLUMN rollout_note text'); }
  async down(q) { await q.query('ALTER TABLE videos DROP COLUMN rollout_note'); }
}
exports.RolloutProbe1899000000000 = RolloutProbe1899000000000;
`,
      );
      const index = path.join(next, 'database', 'migrations', 'index.js');
      writeFileSync(index, `${readFileSync(index, 'utf8')}\nexports.MIGRATIONS.push(require('./1899000000000-rollout-probe').RolloutProbe1899000000000);\n`);
      const before = state();
      const load = readLoad(40, 4);
      const views = viewsFrom(base, ids[3], crowdAddresses(13, 60), 30_000);
      // Asynchronously: the load runs in this process's event loop.
      const { stdout: roll } = await promisify(execFile)(process.execPath, [path.join(repo, 'scripts/stack/stack.mjs'), 'roll', '--dir', dir, '--app', next], { encoding: 'utf8', timeout: 240_000 });
      expect(roll).toContain('every process now runs');
      const [result, statuses] = await Promise.all([load, views]);
      expect(statusesOf(result)).toEqual({ 200: expect.any(Number) });
      expect(result.errors).toBe(0);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      const after = state();
      expect(after).toMatchObject({ rolls: before.rolls + 1, app: next, state: 'running' });
      for (const name of ['api-1', 'api-2', 'worker-1', 'worker-2']) expect(after.processes[name].pid).not.toBe(before.processes[name].pid);
      const db = new Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query(`SELECT name FROM migrations WHERE name = 'RolloutProbe1899000000000'`);
        expect(rows).toHaveLength(1);
      } finally {
        await db.end();
      }
    } finally {
      rmSync(next, { recursive: true, force: true });
    }
  }, 300_000);

  it('stops everything it started on SIGTERM', async () => {
    const { processes } = state();
    expect(await stack.stop()).toBe(0);
    for (const [name, { pid }] of Object.entries(processes)) expect(alive(pid), name).toBe(false);
    expect(state().state).toBe('stopped');
  }, 120_000);
});
