import 'reflect-metadata';
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { dataSourceOptions, openDataSource } from '../src/database/data-source';
import { generateCatalog } from '../src/database/seeds/catalog-generator';
import { writeCatalog } from '../src/database/seeds/catalog-writer';
import { benchIngest } from './ingest';
import { freePort } from './free-port';
import { waitUntilReady } from './ready';
import { API_MAIN, RESULTS_DIR } from './paths';

/**
 * `npm run bench`: seeds a catalogue, starts the real API and a bare Nest + Express baseline as separate
 * processes, and load-tests each scenario with autocannon. Throughput is reported as a ratio of the
 * baseline's, measured in the same run, because absolute numbers drift on shared machines.
 * Settings: BENCH_VIDEOS (default 20000), BENCH_SECONDS per scenario (default 5), BENCH_CONNECTIONS (10),
 * BENCH_HOT_CONNECTIONS (50, for the cached reads, the 304 and the views counter), BENCH_DATABASE_URL (a
 * PostgreSQL server database to use instead of PGlite; it is filled, not emptied).
 *
 * The cached reads are compared with the baseline serving the very JSON the API answered (its /fixture
 * route), so that the ratio is the app's own work per request: routing, guards, pipes, caches, headers.
 */
const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const HOT_CONNECTIONS = Number(process.env.BENCH_HOT_CONNECTIONS ?? 50);
/** `hot`: only the cached reads and the views counter (a quick look at per-request overhead). */
const ONLY_HOT = process.env.BENCH_ONLY === 'hot';
const DATABASE_URL = process.env.BENCH_DATABASE_URL;

interface Result {
  scenario: string;
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  errors: number;
  ratioToBaseline?: number;
}

function startProcess(script: string, env: Record<string, string>, port: number, readyPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  return waitUntilReady(child, `http://127.0.0.1:${port}${readyPath}`, script);
}

/**
 * A JSON POST from a new network every time (X-Forwarded-For, which the API believes from loopback), so that each
 * one is a new viewer: a guest viewer is their network, whatever the user agent.
 */
function post(url: string, body: unknown): autocannon.Options {
  let n = 0;
  const address = () => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`;
  return {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': address() } }) }],
  };
}

async function load(scenario: string, target: string | autocannon.Options, connections = CONNECTIONS, expectStatus = 200): Promise<Result> {
  const options = typeof target === 'string' ? { url: target } : target;
  await autocannon({ ...options, connections, duration: 1 }); // warm-up
  const r = await autocannon({ ...options, connections, duration: SECONDS });
  // autocannon counts a 304 as "non 2xx": for a revalidation it is the expected answer.
  const expected = expectStatus === 304 ? r['3xx'] : r['2xx'];
  return {
    scenario,
    requestsPerSecond: Math.round(r.requests.average),
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    errors: r.errors + r.timeouts + (r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'] - expected),
  };
}

/** The ratio of a result's throughput to another's, to three decimals. */
const ratio = (r: Result, base: Result) => Number((r.requestsPerSecond / base.requestsPerSecond).toFixed(3));

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const children: ChildProcess[] = [];
  try {
    // 1. Seeding speed.
    const seedStarted = Date.now();
    const db = await openDataSource(dataSourceOptions({ databaseUrl: DATABASE_URL ?? null, dataDir, inMemoryDatabase: false }));
    await writeCatalog(db, generateCatalog({ videos: VIDEOS, seed: 1, slugTag: Date.now().toString(36) }));
    const [{ id: sampleId }] = await db.query<{ id: number }[]>(
      `SELECT v.id FROM videos v JOIN video_categories vc ON vc.video_id = v.id GROUP BY v.id ORDER BY v.id LIMIT 1`,
    );
    const [{ category }] = await db.query<{ category: string }[]>(
      `SELECT category_id AS category FROM video_categories GROUP BY category_id ORDER BY count(*) DESC LIMIT 1`,
    );
    await db.destroy();
    const seedSeconds = (Date.now() - seedStarted) / 1000;

    // 2. The real API and the baseline, each in its own process.
    const [apiPort, basePort] = [await freePort(), await freePort()];
    const api = `http://127.0.0.1:${apiPort}`;
    children.push(
      await startProcess(API_MAIN, {
        NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'false', HOST: '127.0.0.1', RATE_LIMIT_WRITE: '0',
        // The read budget counts every read, as in production, but never refuses one address's load test; a proxy
        // on loopback names each viewer's network.
        RATE_LIMIT_READ: '1000000000', TRUST_PROXY: 'loopback', PUBLIC_URL: api,
        JWT_SECRET: 'bench-secret-bench-secret-bench-secret', MEDIA_SIGNING_KEY: 'bench-signing-key-0000',
        ...(DATABASE_URL ? { DATABASE_URL } : {}),
      }, apiPort, '/api/health'),
    );
    // The cached reads' answers, for the baseline to serve the same JSON.
    const hot = {
      detail: `/api/videos/${sampleId}`,
      related: `/api/videos/${sampleId}/related`,
      listing: '/api/videos',
      categories: '/api/categories',
    } as const;
    const fixtures: Record<string, unknown> = {};
    for (const [name, url] of Object.entries(hot)) fixtures[name] = await (await fetch(api + url)).json();
    const fixturesFile = path.join(dataDir, 'baseline-fixtures.json');
    writeFileSync(fixturesFile, JSON.stringify(fixtures));
    children.push(await startProcess(path.join(__dirname, 'baseline-server.js'), { BASELINE_FIXTURES: fixturesFile }, basePort, '/ping'));

    // 3. Scenarios.
    const baseline = await load('baseline: bare Nest GET', `http://127.0.0.1:${basePort}/ping`);
    const results: Result[] = [baseline];
    for (const [scenario, url] of [
      ['GET /api/videos (newest)', '/api/videos'],
      ['GET /api/videos?sort=most-viewed', '/api/videos?sort=most-viewed'],
      ['GET /api/videos?sort=trending', '/api/videos?sort=trending'],
      [`GET /api/videos?category=${category}`, `/api/videos?category=${category}`],
      ['GET /api/videos?q=pool party', '/api/videos?q=pool%20party'],
      ['GET /api/videos/{id}', `/api/videos/${sampleId}`],
      ['GET /api/videos/{id}/related', `/api/videos/${sampleId}/related`],
      ['GET /api/categories', '/api/categories'],
      ['GET /api/site', '/api/site'],
    ] as const) {
      if (!ONLY_HOT) results.push(await load(scenario, api + url));
    }
    for (const r of results) r.ratioToBaseline = Number((r.requestsPerSecond / baseline.requestsPerSecond).toFixed(3));

    // Hot reads from the catalogue cache, each against the baseline answering the same JSON, at 50 connections.
    const hotResults: Result[] = [];
    for (const [name, url] of Object.entries(hot)) {
      const base = await load(`baseline: the same JSON (${name})`, `http://127.0.0.1:${basePort}/fixture/${name}`, HOT_CONNECTIONS);
      const cached = await load(`cached GET ${url}`, api + url, HOT_CONNECTIONS);
      base.ratioToBaseline = 1;
      cached.ratioToBaseline = ratio(cached, base);
      hotResults.push(base, cached);
    }
    // A browser's revalidation of a detail it holds: 304 without a body.
    const etag = (await fetch(api + hot.detail)).headers.get('etag') ?? '';
    const detailBase = hotResults[0];
    const revalidation = await load(`GET ${hot.detail} If-None-Match (304)`, { url: api + hot.detail, headers: { 'if-none-match': etag } }, HOT_CONNECTIONS, 304);
    revalidation.ratioToBaseline = ratio(revalidation, detailBase);
    hotResults.push(revalidation);

    // Writes: the views counter against a bare POST.
    const postBaseline = await load('baseline: bare Nest POST', post(`http://127.0.0.1:${basePort}/ping`, { videoId: sampleId }), HOT_CONNECTIONS);
    const views = await load('POST /api/video/increment-views (a new viewer each)', post(`${api}/api/video/increment-views`, { videoId: sampleId }), HOT_CONNECTIONS);
    postBaseline.ratioToBaseline = 1;
    views.ratioToBaseline = ratio(views, postBaseline);
    hotResults.push(postBaseline, views);

    // A signed-in read: every request's token checked (its signature, then its session) against a bare GET. A new
    // member each run: a BENCH_DATABASE_URL database is filled, not emptied, and would answer 409 to the same address.
    const signUp = await fetch(`${api}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench.member.${Date.now()}@example.com`, password: 'correct horse battery', displayName: 'Bench member' }),
    });
    if (signUp.status !== 201) throw new Error(`registering the bench's member answered ${signUp.status}`);
    const { accessToken } = (await signUp.json()) as { accessToken: string };
    const getBaseline = await load('baseline: bare Nest GET', `http://127.0.0.1:${basePort}/ping`, HOT_CONNECTIONS);
    const me = await load("GET /api/auth/me (a member's token)", { url: `${api}/api/auth/me`, headers: { authorization: `Bearer ${accessToken}` } }, HOT_CONNECTIONS);
    getBaseline.ratioToBaseline = 1;
    me.ratioToBaseline = ratio(me, getBaseline);
    hotResults.push(getBaseline, me);

    const database = DATABASE_URL ? 'PostgreSQL server' : 'PGlite';
    console.log(`\nCatalogue of ${VIDEOS} videos on ${database}; ${CONNECTIONS} connections, ${SECONDS} s per scenario.`);
    console.log(`Seeding: ${Math.round(VIDEOS / seedSeconds)} videos/s (${seedSeconds.toFixed(1)} s).\n`);
    const table = (rows: Result[]) =>
      console.table(rows.map((r) => ({ scenario: r.scenario, 'req/s': r.requestsPerSecond, 'x baseline': r.ratioToBaseline, 'p50 ms': r.p50ms, 'p99 ms': r.p99ms, errors: r.errors })));
    table(results);
    console.log(`\nHot reads, the views counter and a signed-in read, ${HOT_CONNECTIONS} connections, each against the baseline's same answer:\n`);
    table(hotResults);

    // Ingest: a 1080p clip through the pipeline against the bare ffmpeg commands.
    const ingest = ONLY_HOT ? null : await benchIngest();
    if (ingest) console.log(
      `\nIngest of a ${ingest.clipSeconds} s 1080p clip: ${ingest.pipelineSeconds} s, ${ingest.realtimeMultiple}x real time; ` +
        `bare ffmpeg commands ${ingest.bareSeconds} s, so the pipeline takes ${ingest.overheadRatio}x their time.`,
    );

    const out = RESULTS_DIR;
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'latest.json'), JSON.stringify({ when: new Date().toISOString(), database, videos: VIDEOS, seedVideosPerSecond: Math.round(VIDEOS / seedSeconds), results, hotConnections: HOT_CONNECTIONS, hotResults, ingest }, null, 2));
    if ([...results, ...hotResults].some((r) => r.errors > 0)) {
      console.error('Some requests failed.');
      process.exitCode = 1;
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    if (!DATABASE_URL) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
