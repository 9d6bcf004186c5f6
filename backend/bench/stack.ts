import 'reflect-metadata';
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { dataSourceOptions, openDataSource } from '../src/database/data-source';
import { generateCatalog } from '../src/database/seeds/catalog-generator';
import { writeCatalog } from '../src/database/seeds/catalog-writer';
import { crowdAddresses, crowdLoad, statusesOf } from './crowd';
import { RESULTS_DIR } from './paths';
import { startStack } from './stack-process';

/**
 * `npm run bench:stack` (the last part of `npm run bench`): the same mixed read load through nginx to the stack of
 * `npm run stack` with 1, then 2 API processes, on this machine, as a ratio measured in one run, with p99 for each.
 * The load is a watch session's requests over a catalogue too large for nginx's 5-second micro-cache to hold:
 * listing pages in every sort, a video, its related videos, a counted view and a rendered watch page, each for a
 * video drawn at random, from a crowd of loopback addresses (nginx limits reads per address).
 * Settings: BENCH_STACK_VIDEOS (10000), BENCH_STACK_SECONDS (20 per run), BENCH_STACK_CONNECTIONS (32),
 * BENCH_STACK_DATABASE_URL (the server to make a database on; default TEST_DATABASE_URL, else the local server).
 */
const VIDEOS = Number(process.env.BENCH_STACK_VIDEOS ?? 10_000);
const SECONDS = Number(process.env.BENCH_STACK_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_STACK_CONNECTIONS ?? 32);
const SERVER = process.env.BENCH_STACK_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Run {
  apiProcesses: number;
  /** Answers of 200 a second, whatever they were. */
  requestsPerSecond: number;
  /**
   * Watch sessions served in full a second: each connection runs the session's five requests in turn, so
   * sessions are answers / 5, less those whose page was shed. This is the ratio's measure: a shed page costs the
   * process almost nothing and frees its connection for the cheap requests, so answers a second reward the
   * process that sheds most (the single one), while sessions a second count the work the site did.
   */
  sessionsPerSecond: number;
  p50ms: number;
  p99ms: number;
  statuses: Record<string, number>;
  /** Pages answered 503 by the bounded line of renders (docs/web-client.md): shed load, by design, not faults. */
  shed: number;
  errors: number;
}

async function withDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_stack_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: SERVER });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

function sessionRequests(ids: number[]): autocannon.Request[] {
  const any = () => ids[Math.floor(Math.random() * ids.length)];
  const sorts = ['newest', 'most-viewed', 'trending'];
  return [
    { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/videos?page=${1 + Math.floor(Math.random() * 100)}&sort=${sorts[Math.floor(Math.random() * 3)]}` }) },
    { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/videos/${any()}` }) },
    { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/videos/${any()}/related` }) },
    {
      method: 'POST',
      setupRequest: (r) => ({ ...r, path: '/api/video/increment-views', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ videoId: any() }) }),
    },
    { method: 'GET', setupRequest: (r) => ({ ...r, path: `/video/${any()}` }) },
  ];
}

async function measure(api: number, databaseUrl: string, ids: number[]): Promise<Run> {
  const stack = await startStack({ api, workers: 0, env: { STACK_DATABASE_URL: databaseUrl, S3_BUCKET: `bench-stack-${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'warn' }, timeoutMs: 300_000 });
  try {
    const options = { url: stack.base, connections: CONNECTIONS, requests: sessionRequests(ids) };
    // 1,000 viewers' addresses: at the rates measured here each stays well under nginx's 10 reads a second.
    const addresses = crowdAddresses(20, 250).concat(crowdAddresses(21, 250), crowdAddresses(22, 250), crowdAddresses(23, 250));
    await crowdLoad({ ...options, duration: 5 }, addresses); // warm-up: JIT, pools, the first renders
    const result = await crowdLoad({ ...options, duration: SECONDS }, addresses);
    const statuses = statusesOf(result);
    const shed = statuses['503'] ?? 0;
    return {
      apiProcesses: api,
      requestsPerSecond: Math.round((statuses['200'] ?? 0) / SECONDS),
      sessionsPerSecond: Number(((Object.values(statuses).reduce((n, count) => n + count, 0) / options.requests.length - shed) / SECONDS).toFixed(1)),
      p50ms: result.latency.p50,
      p99ms: result.latency.p99,
      statuses,
      shed,
      errors: result.errors + result.timeouts + Object.entries(statuses).filter(([code]) => code !== '200' && code !== '503').reduce((n, [, count]) => n + count, 0),
    };
  } finally {
    await stack.stop();
    rmSync(stack.dir, { recursive: true, force: true });
  }
}

async function main() {
  const database = await withDatabase();
  try {
    const db = await openDataSource(dataSourceOptions({ databaseUrl: database.url, dataDir: tmpdir(), inMemoryDatabase: false }));
    await writeCatalog(db, generateCatalog({ videos: VIDEOS, seed: 7, slugTag: Date.now().toString(36) }));
    const ids = (await db.query<{ id: number }[]>(`SELECT id FROM videos WHERE status = 'ready' ORDER BY id`)).map((row) => Number(row.id));
    await db.destroy();

    const one = await measure(1, database.url, ids);
    const two = await measure(2, database.url, ids);
    const ratio = Number((two.sessionsPerSecond / one.sessionsPerSecond).toFixed(2));
    const answersRatio = Number((two.requestsPerSecond / one.requestsPerSecond).toFixed(2));
    console.log(`\nThe stack (npm run stack: nginx, PostgreSQL, Redis) under a watch session's mixed load, ${VIDEOS} videos, ${CONNECTIONS} connections, ${SECONDS} s each:\n`);
    console.table([one, two].map((r) => ({ 'API processes': r.apiProcesses, 'full sessions/s': r.sessionsPerSecond, 'answers/s (200)': r.requestsPerSecond, 'p50 ms': r.p50ms, 'p99 ms': r.p99ms, 'pages shed (503)': r.shed, errors: r.errors })));
    console.log(`2 API processes / 1: ${ratio}x the watch sessions served in full (target 1.6x); ${answersRatio}x the answers of 200`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(path.join(RESULTS_DIR, 'stack.json'), JSON.stringify({ when: new Date().toISOString(), videos: VIDEOS, connections: CONNECTIONS, seconds: SECONDS, runs: [one, two], ratio, answersRatio }, null, 2));
    if (one.errors || two.errors) {
      console.error('Some requests failed.');
      process.exitCode = 1;
    }
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
