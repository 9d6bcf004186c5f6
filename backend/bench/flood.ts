import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { dataSourceOptions, openDataSource } from '../src/database/data-source';
import { generateCatalog } from '../src/database/seeds/catalog-generator';
import { writeCatalog } from '../src/database/seeds/catalog-writer';
import { signedPath } from '../src/media/signing';
import { freePort } from './free-port';
import { waitUntilReady } from './ready';
import { API_MAIN, RESULTS_DIR } from './paths';

/**
 * `npm run bench` (after the load tests), issue #29 point 3: what a flood of addresses made to bust the page
 * cache does to everyone else. The real API (production mode, the built web client and its render module)
 * serves a catalogue of BENCH_FLOOD_VIDEOS (500) videos; a client sends BENCH_FLOOD_REQUESTS (500) distinct
 * addresses, BENCH_FLOOD_CONCURRENCY (10) at a time, each from its own network (X-Forwarded-For, believed from
 * loopback: a botnet, so the read budget per network never applies and the renders' own limits are what is
 * measured): `/?x=N`, a watch page with `?t=N`, `/categories?cb=N`, a sorted listing with a made-up parameter and
 * a new search. Meanwhile a prober asks `/api/health` and a signed HLS segment one after the other, as a load
 * balancer and a viewer would; the same prober runs on the idle API first. Reported: each probe's p50, p95 and
 * max, idle and during the flood, and the flood's answers by status. BENCH_FLOOD_MAIN names another build's
 * main.js (to measure an older commit with the same client).
 */
const VIDEOS = Number(process.env.BENCH_FLOOD_VIDEOS ?? 500);
const REQUESTS = Number(process.env.BENCH_FLOOD_REQUESTS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_FLOOD_CONCURRENCY ?? 10);
const IDLE_PROBES = 100;
const MAIN = process.env.BENCH_FLOOD_MAIN ?? API_MAIN;
const SIGNING_KEY = 'bench-signing-key-0000';

interface Latencies {
  p50: number;
  p95: number;
  max: number;
  count: number;
  failed: number;
}

function summary(samples: { ms: number; ok: boolean }[]): Latencies {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1));
  return { p50: at(0.5), p95: at(0.95), max: Number((sorted.at(-1) ?? 0).toFixed(1)), count: samples.length, failed: samples.filter((s) => !s.ok).length };
}

async function timed(url: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return { ms: performance.now() - started, ok: res.ok };
  } catch {
    return { ms: performance.now() - started, ok: false };
  }
}

/** Health and the segment, one after the other, until `stop()` says so (or `rounds` are done). */
async function probe(api: string, segment: string, until: () => boolean, rounds = Infinity) {
  const health: { ms: number; ok: boolean }[] = [];
  const media: { ms: number; ok: boolean }[] = [];
  for (let n = 0; n < rounds && !until(); n++) {
    health.push(await timed(`${api}/api/health`));
    media.push(await timed(api + segment));
  }
  return { health, media };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-flood-'));
  let child: ChildProcess | undefined;
  try {
    const db = await openDataSource(dataSourceOptions({ databaseUrl: null, dataDir, inMemoryDatabase: false }));
    await writeCatalog(db, generateCatalog({ videos: VIDEOS, seed: 7, slugTag: Date.now().toString(36) }));
    const ids = (await db.query<{ id: number }[]>('SELECT id FROM videos ORDER BY id LIMIT 20')).map((r) => Number(r.id));
    await db.destroy();
    // A segment in the media store, as the player asks for it.
    const folder = path.join(dataDir, 'media', 'videos', 'bench', 'flood');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'seg-0.ts'), Buffer.alloc(188 * 2000, 0x47));
    const segment = signedPath('/videos/bench/flood/', 'seg-0.ts', Math.floor(Date.now() / 1000) + 3600, SIGNING_KEY);

    const port = await freePort();
    const api = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'false', HOST: '127.0.0.1',
        PORT: String(port), PUBLIC_URL: api, TRUST_PROXY: 'loopback', JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
        MEDIA_SIGNING_KEY: SIGNING_KEY,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitUntilReady(child, `${api}/api/health`, MAIN);
    // Warm: the pages a visitor would have made the API render already.
    for (const url of ['/', `/video/${ids[0]}`, '/categories', '/?sort=most-viewed']) await fetch(api + url);

    const idle = await probe(api, segment, () => false, IDLE_PROBES);

    const statuses = new Map<number, number>();
    let done = false;
    const during = probe(api, segment, () => done);
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const n = next++;
        const url = [`/?x=${n}`, `/video/${ids[n % ids.length]}?t=${n}`, `/categories?cb=${n}`, `/?sort=most-viewed&r=${n}`, `/search?q=flood${n}`][n % 5];
        try {
          const res = await fetch(api + url, { headers: { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        } catch {
          statuses.set(0, (statuses.get(0) ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const floodSeconds = (performance.now() - started) / 1000;
    done = true;
    const flood = await during;

    const rows = [
      { probe: 'GET /api/health, idle', ...summary(idle.health) },
      { probe: 'GET /api/health, during the flood', ...summary(flood.health) },
      { probe: 'GET signed segment, idle', ...summary(idle.media) },
      { probe: 'GET signed segment, during the flood', ...summary(flood.media) },
    ];
    console.log(`\nFlood of ${REQUESTS} cache-busting page addresses, ${CONCURRENCY} at a time, ${VIDEOS} videos (${path.relative(process.cwd(), MAIN)}):`);
    console.log(`${(REQUESTS / floodSeconds).toFixed(0)} pages/s for ${floodSeconds.toFixed(1)} s; answers ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}\n`);
    console.table(rows);
    const out = RESULTS_DIR;
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'flood-latest.json'), JSON.stringify({ when: new Date().toISOString(), videos: VIDEOS, requests: REQUESTS, concurrency: CONCURRENCY, floodSeconds, statuses: Object.fromEntries(statuses), rows }, null, 2));
    if (rows.some((r) => r.failed > 0)) {
      console.error('Health checks or segments failed during the flood.');
      process.exitCode = 1;
    }
  } finally {
    child?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
