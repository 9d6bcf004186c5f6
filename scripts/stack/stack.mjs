// `npm run stack`: the compose file's stack (docker-compose.yml) as plain processes on this machine, with its
// settings and nginx template (scripts/stack/description.mjs): PostgreSQL (the local server, a database of the
// stack's own), a Redis of its own, the S3 server (the project's Ceph RGW, scripts/s3), N API processes, N
// workers and nginx in front. docs/operating.md › "The stack on one machine".
//
//   npm run stack [-- --api 2 --workers 1 --port 8080 --dir .stack --fresh]
//   npm run stack -- roll [--app backend/dist-next]      replace the processes one by one (a rolling deploy)
//   npm run stack -- stop                                 what Ctrl-C does, from another terminal
//
// Each process's id, port and log are in {dir}/stack.json. Like compose's `restart: unless-stopped`, a process
// that exits is started again. Ctrl-C or SIGTERM stops everything the stack started, in order: nginx, then the
// API processes (which drain) and the workers, then Redis, then the S3 server if the stack started it.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt, root } from '../build-state.mjs';
import { commandRuns, ensureDebianPackage } from '../debian-package.mjs';
import { renderNginxConfig } from '../../docker/nginx/render-config.mjs';
import { describeStack, readCompose } from './description.mjs';

const { positionals, values: options } = parseArgs({
  allowPositionals: true,
  options: {
    api: { type: 'string', default: '2' },
    workers: { type: 'string', default: '1' },
    port: { type: 'string', default: process.env.HTTP_PORT ?? '8080' },
    dir: { type: 'string', default: path.join(root, '.stack') },
    'api-port': { type: 'string', default: '3101' },
    'redis-port': { type: 'string', default: '6390' },
    'metrics-port': { type: 'string', default: '9465' },
    'status-port': { type: 'string' },
    app: { type: 'string' },
    fresh: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const USAGE = `Usage: npm run stack [-- --api N --workers N --port P --dir D --fresh]
       npm run stack -- roll [--app backend/dist]     a rolling deploy of the running stack
       npm run stack -- stop`;
const dir = path.resolve(options.dir);
const statePath = path.join(dir, 'stack.json');
const count = (name, min) => {
  const n = Number(options[name]);
  if (!Number.isInteger(n) || n < min || n > 16) fail(`--${name} must be a whole number from ${min} to 16\n${USAGE}`);
  return n;
};

function fail(message) {
  console.error(`stack: ${message}`);
  process.exit(2);
}

function log(message) {
  console.log(`[stack] ${message}`);
}

const readState = () => JSON.parse(readFileSync(statePath, 'utf8'));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

/** `stack roll`: asks the running stack (SIGHUP) to replace its processes with the build in --app, and waits for it. */
async function roll() {
  const state = runningState();
  const app = path.resolve(options.app ?? path.join(root, 'backend', 'dist'));
  if (!existsSync(path.join(app, 'main.js'))) fail(`${app} holds no main.js: --app names a built backend (backend/dist)`);
  writeFileSync(path.join(dir, 'roll.json'), JSON.stringify({ app }));
  const before = state.rolls;
  process.kill(state.pid, 'SIGHUP');
  for (;;) {
    await sleep(250);
    const now = readState();
    if (now.rollError) fail(`the rolling deploy stopped: ${now.rollError}`);
    if (now.rolls > before) break;
    if (!alive(state.pid)) fail('the stack exited during the rolling deploy');
  }
  log(`every process now runs ${path.relative(root, app) || app}`);
}

async function stopOther() {
  const state = runningState();
  process.kill(state.pid, 'SIGTERM');
  while (alive(state.pid)) await sleep(200);
  log('stopped');
}

function runningState() {
  if (!existsSync(statePath)) fail(`no stack runs from ${dir}`);
  const state = readState();
  if (!alive(state.pid) || state.state === 'stopped') fail(`the stack of ${dir} is not running`);
  return state;
}

async function start() {
  const api = count('api', 1);
  const workers = count('workers', 0);
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a port number\n${USAGE}`);
  if (existsSync(statePath)) {
    const previous = readState();
    if (previous.state !== 'stopped' && alive(previous.pid)) fail(`a stack already runs from ${dir} (pid ${previous.pid}): npm run stack -- stop`);
  }
  if (options.fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'logs'), { recursive: true });
  // nginx's workers run as another user (nobody, when started as root) and keep their caches under the folder.
  chmodSync(dir, 0o755);

  // What the stack runs besides Node, as the tests do: installed from Debian when missing and this user may.
  ensureDebianPackage('nginx-light', commandRuns('nginx', ['-v']), 'The stack runs nginx in front');
  ensureDebianPackage('redis-server', commandRuns('redis-server', ['--version']), 'The stack runs a Redis of its own');
  ensureDebianPackage(
    ['ceph-mon', 'ceph-osd', 'radosgw', 'ceph-common'],
    () => ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'ceph', 'monmaptool', 'ceph-authtool'].every((name) => spawnSync('which', [name]).status === 0),
    'The stack keeps the media in an S3 bucket on a Ceph RGW',
  );
  ensureBuilt();

  const stack = new Stack({ api, workers, port });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stack.stop(signal));
  process.on('SIGHUP', () => void stack.roll());
  try {
    await stack.start();
  } catch (error) {
    if (stack.stopping) return;
    console.error(`stack: ${error instanceof Error ? error.message : error}`);
    await stack.stop('error');
  }
}

class Stack {
  constructor({ api, workers, port }) {
    this.api = api;
    this.workers = workers;
    this.port = port;
    this.app = path.resolve(options.app ?? path.join(root, 'backend', 'dist'));
    this.children = new Map();
    this.stopping = false;
    this.rolls = 0;
    this.state = { pid: process.pid, state: 'starting', rolls: 0, dir, processes: {} };
  }

  async start() {
    const secrets = this.secrets();
    const databaseUrl = process.env.STACK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/hunktube_stack';
    await ensureDatabase(databaseUrl, options.fresh);
    const redisPort = Number(options['redis-port']);
    this.startRedis(redisPort);
    const s3 = startS3();
    this.s3 = s3;
    const vars = { ...process.env, ...secrets, HTTP_PORT: String(this.port), S3_ACCESS_KEY: s3.S3_ACCESS_KEY, S3_SECRET_KEY: s3.S3_SECRET_KEY };
    this.description = describeStack(readCompose(), {
      vars,
      api: this.api,
      workers: this.workers,
      local: {
        dir,
        databaseUrl,
        redisUrl: `redis://127.0.0.1:${redisPort}`,
        s3Endpoint: s3.S3_ENDPOINT,
        apiPort: Number(options['api-port']),
        workerMetricsPort: Number(options['metrics-port']),
        statusPort: Number(options['status-port'] ?? this.port + 1),
      },
    });
    this.state.database = databaseUrl;
    this.state.redis = { url: `redis://127.0.0.1:${redisPort}`, pid: this.children.get('redis').child.pid };
    this.state.s3 = { endpoint: s3.S3_ENDPOINT, bucket: this.description.processes[0].env.S3_BUCKET, startedByStack: s3.startedByStack };
    const [first, ...others] = this.description.processes.filter((p) => p.service === 'api');
    // The first API process runs the migrations; the others (and then the workers, as compose's depends_on says) follow.
    await this.startApp(first);
    await Promise.all(others.map((p) => this.startApp(p)));
    for (const p of this.description.processes.filter((p) => p.service === 'worker')) await this.startApp(p);
    await this.startNginx();
    this.state.url = this.description.processes[0].env.PUBLIC_URL;
    this.state.state = 'running';
    this.save();
    console.log(`\nHunkTube stack: ${this.state.url}  (${this.api} API process${this.api > 1 ? 'es' : ''}, ${this.workers} worker${this.workers === 1 ? '' : 's'})`);
    console.log(`  nginx       http://127.0.0.1:${this.port}  (status on 127.0.0.1:${this.description.nginx.statusPort})`);
    for (const p of this.description.processes) console.log(`  ${p.name.padEnd(11)} ${p.port ? `http://127.0.0.1:${p.port}` : `metrics on :${p.metricsPort}`}  pid ${this.children.get(p.name).child.pid}`);
    console.log(`  PostgreSQL  ${databaseUrl}\n  Redis       redis://127.0.0.1:${redisPort}\n  S3          ${s3.S3_ENDPOINT}  bucket ${this.state.s3.bucket} (Ceph RGW)`);
    console.log(`  state, logs ${dir.startsWith(process.cwd()) ? path.relative(process.cwd(), dir) : dir}/stack.json, logs/\nCtrl-C stops everything.`);
  }

  /** Development values for what compose requires from the operator, made once per stack folder. */
  secrets() {
    const file = path.join(dir, 'secrets.json');
    if (!existsSync(file)) writeFileSync(file, JSON.stringify({ JWT_SECRET: randomBytes(32).toString('hex'), MEDIA_SIGNING_KEY: randomBytes(32).toString('hex') }), { mode: 0o600 });
    const made = JSON.parse(readFileSync(file, 'utf8'));
    return { JWT_SECRET: process.env.JWT_SECRET || made.JWT_SECRET, MEDIA_SIGNING_KEY: process.env.MEDIA_SIGNING_KEY || made.MEDIA_SIGNING_KEY };
  }

  save() {
    this.state.rolls = this.rolls;
    this.state.processes = Object.fromEntries(
      [...this.children].map(([name, entry]) => [name, { pid: entry.child.pid, ...(entry.port ? { port: entry.port } : {}), ...(entry.metricsPort ? { metricsPort: entry.metricsPort } : {}), restarts: entry.restarts, log: entry.logPath }]),
    );
    writeFileSync(`${statePath}.tmp`, `${JSON.stringify(this.state, null, 2)}\n`);
    renameSync(`${statePath}.tmp`, statePath);
  }

  /** Starts a process in its own process group, its output in logs/{name}.log, started again when it exits. */
  spawn(name, command, args, { env = process.env, port, metricsPort } = {}) {
    const logPath = path.join(dir, 'logs', `${name}.log`);
    const logStart = existsSync(logPath) ? statSync(logPath).size : 0;
    const fd = openSync(logPath, 'a');
    const child = spawn(command, args, { cwd: root, env, detached: true, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const previous = this.children.get(name);
    const entry = { child, port, metricsPort, logPath, logStart, restarts: previous?.restarts ?? 0, replacing: false, spec: { command, args, env, port, metricsPort } };
    this.children.set(name, entry);
    entry.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    void entry.exited.then(({ code, signal }) => {
      if (this.stopping || entry.replacing || this.children.get(name) !== entry) return;
      log(`${name} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); starting it again (restart: unless-stopped)`);
      setTimeout(() => {
        if (this.stopping || this.children.get(name) !== entry) return;
        const next = this.spawn(name, command, args, { env, port, metricsPort });
        next.restarts = entry.restarts + 1;
        this.save();
      }, 1000);
    });
    if (this.state.state !== 'starting') this.save();
    return entry;
  }

  startRedis(port) {
    const data = path.join(dir, 'redis');
    mkdirSync(data, { recursive: true });
    // As the compose file's redis:7 image runs it: its default snapshots, here in the stack's folder.
    this.spawn('redis', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', data, '--save', '3600 1 300 100 60 10000', '--appendonly', 'no']);
  }

  async startApp(p, app = this.app) {
    mkdirSync(p.env.DATA_DIR, { recursive: true });
    const args = p.command.slice(1).map((arg) => (arg.startsWith('backend/dist/') ? path.join(app, arg.slice('backend/dist/'.length)) : arg));
    const entry = this.spawn(p.name, process.execPath, args, { env: { ...p.env, PATH: process.env.PATH }, port: p.port, metricsPort: p.metricsPort });
    if (p.port) await waitFor(`${p.name}'s readiness`, `http://127.0.0.1:${p.port}/api/health/ready`, entry);
    // A worker serves no HTTP (its metrics only with METRICS_TOKEN): it is up once it says it waits for jobs.
    else await waitFor(`${p.name}`, () => readFileSync(entry.logPath).subarray(entry.logStart).includes('is waiting for jobs'), entry);
    return entry;
  }

  async startNginx() {
    const work = path.join(dir, 'nginx');
    rmSync(path.join(work, 'conf.d'), { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const ports = this.description.processes.filter((p) => p.service === 'api').map((p) => p.port);
    const conf = renderNginxConfig({
      work,
      apiPorts: ports,
      nginxPort: this.port,
      media: path.join(dir, 'media'),
      html: path.join(root, 'frontend', 'dist'),
      env: this.description.nginx.env,
      statusPort: this.description.nginx.statusPort,
      workerProcesses: 'auto',
    });
    const test = spawnSync('nginx', ['-t', '-q', '-c', conf], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx refused the rendered configuration:\n${test.stderr}`);
    const entry = this.spawn('nginx', 'nginx', ['-c', conf, '-g', 'daemon off;']);
    await waitFor('nginx', `http://127.0.0.1:${this.port}/nginx-health`, entry);
  }

  /** A rolling deploy: each API process drained and replaced by one of the new build, once ready the next; then the workers. */
  async roll() {
    if (this.state.state !== 'running') return;
    this.state.state = 'rolling';
    delete this.state.rollError;
    this.save();
    try {
      const { app } = JSON.parse(readFileSync(path.join(dir, 'roll.json'), 'utf8'));
      for (const p of this.description.processes) {
        const old = this.children.get(p.name);
        old.replacing = true;
        log(`rolling ${p.name}: draining pid ${old.child.pid}`);
        await stopChild(old, 'SIGTERM', 45_000);
        const entry = await this.startApp(p, app);
        log(`rolling ${p.name}: pid ${entry.child.pid} ready on ${path.relative(root, app) || app}`);
      }
      this.app = app;
      this.rolls += 1;
      this.state.app = app;
    } catch (error) {
      this.state.rollError = error instanceof Error ? error.message : String(error);
      log(`the rolling deploy stopped: ${this.state.rollError}`);
    }
    this.state.state = 'running';
    this.save();
  }

  async stop(reason) {
    // npm passes a terminal's Ctrl-C on as well: a second signal within two seconds is the same one.
    if (this.stopping && Date.now() - this.stoppingSince < 2000) return;
    if (this.stopping) {
      log('stopping at once');
      for (const entry of this.children.values()) killGroup(entry.child.pid, 'SIGKILL');
      process.exit(1);
    }
    this.stopping = true;
    this.stoppingSince = Date.now();
    log(`stopping (${reason})…`);
    if (this.state.state !== 'starting') {
      this.state.state = 'stopping';
      this.save();
    }
    const nginx = this.children.get('nginx');
    if (nginx) await stopChild(nginx, 'SIGQUIT', 10_000);
    await Promise.all([...this.children].filter(([name]) => name !== 'nginx' && name !== 'redis').map(([, entry]) => stopChild(entry, 'SIGTERM', 45_000)));
    const redis = this.children.get('redis');
    if (redis) await stopChild(redis, 'SIGTERM', 10_000);
    if (this.s3?.startedByStack) spawnSync(path.join(root, 'scripts', 's3', 'stop-ceph-s3.sh'), { stdio: 'inherit', env: { ...process.env, S3LAB_DIR: s3Dir() } });
    this.state.state = 'stopped';
    this.save();
    log('stopped');
    process.exit(reason === 'error' ? 1 : 0);
  }
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Signals the process (not its group: an API's drain is its own), then its group with SIGKILL after `graceMs`. */
async function stopChild(entry, signal, graceMs) {
  if (entry.child.exitCode === null && entry.child.signalCode === null) {
    try {
      entry.child.kill(signal);
    } catch {
      // already gone
    }
  }
  const timer = setTimeout(() => killGroup(entry.child.pid, 'SIGKILL'), graceMs);
  await entry.exited;
  clearTimeout(timer);
  // What the process left in its group (an ffmpeg of a worker) goes with it.
  killGroup(entry.child.pid, 'SIGKILL');
}

/** Polls until `url` answers 200 (or `check` is true); fails with the log's last lines when the process exits or 120 s pass. */
async function waitFor(what, check, entry) {
  const deadline = Date.now() + 120_000;
  let exited = false;
  void entry.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${what}: the process exited\n${tail(entry.logPath)}`);
    try {
      if (typeof check === 'function') {
        if (check()) return;
      } else {
        const response = await fetch(check, { signal: AbortSignal.timeout(2000) });
        await response.arrayBuffer();
        if (response.status === 200) return;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what}: not ready after 120 s\n${tail(entry.logPath)}`);
    await sleep(200);
  }
}

function tail(file) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

function s3Dir() {
  return process.env.S3LAB_DIR ?? path.join(process.env.TMPDIR ?? '/tmp', 'hunktube-s3');
}

/** The project's Ceph RGW (scripts/s3), reused when one runs; `startedByStack` says whether the stop takes it down. */
function startS3() {
  const s3 = s3Dir();
  const pidFile = path.join(s3, 'run', 'rgw.pid');
  const running = existsSync(pidFile) && alive(Number(readFileSync(pidFile, 'utf8')));
  log(running ? 'S3: the Ceph RGW already running is used' : 'S3: starting a Ceph RGW (scripts/s3/start-ceph-s3.sh)…');
  const run = spawnSync('flock', ['-o', `${s3}.lock`, path.join(root, 'scripts', 's3', 'start-ceph-s3.sh')], {
    encoding: 'utf8',
    env: { ...process.env, S3LAB_DIR: s3 },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error('scripts/s3/start-ceph-s3.sh did not start the S3 server (above)');
  const vars = Object.fromEntries(run.stdout.split('\n').map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line)).filter(Boolean).map((m) => [m[1], m[2]]));
  return { ...vars, startedByStack: !running };
}

/** The stack's database on the local server, made when missing (dropped first with --fresh). */
async function ensureDatabase(url, fresh) {
  const { default: pg } = await import('pg');
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`the stack's database name must be a plain identifier, not "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`the stack needs the PostgreSQL server of STACK_DATABASE_URL (${admin.host}): ${error.message}`, { cause: error });
  }
  try {
    if (fresh) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${name}`);
      log(`PostgreSQL: made the database ${name}`);
    }
  } finally {
    await client.end();
  }
}

const [command = 'start'] = positionals;
if (command === 'roll') await roll();
else if (command === 'stop') await stopOther();
else if (command === 'start') await start();
else fail(`unknown command ${command}\n${USAGE}`);
