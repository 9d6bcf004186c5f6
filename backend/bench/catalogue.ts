import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import { dataSourceOptions, isServer, openDataSource } from '../src/database/data-source';
import { generateCatalog, rng, TITLE_WORDS } from '../src/database/seeds/catalog-generator';
import { writeCatalog } from '../src/database/seeds/catalog-writer';
import { VIDEO_SORTS, MAX_PAGE, type VideoSort } from '../src/videos/dto/list-videos.query';
import { freePort } from './free-port';
import { waitUntilReady } from './ready';
import { timedGet } from './timed-get';
import { API_MAIN, RESULTS_DIR } from './paths';

/**
 * `npm run bench:catalogue`: the catalogue's reads at scale, uncached. Seeds CATALOGUE_VIDEOS videos (default
 * 100,000) into a fresh PGlite (or into BENCH_DATABASE_URL, reused when it already holds that many), starts the
 * real API with CATALOGUE_CACHE=off, and from ONE client sends each scenario CATALOGUE_RUNS times (default 200)
 * with pages, ids, taxa and words drawn at random from a seeded PRNG, so that no cache could help even if one
 * were on. Prints p50 / p99 per scenario and writes bench-results/catalogue-<db>-<videos>.json.
 * Settings: CATALOGUE_VIDEOS, CATALOGUE_RUNS, CATALOGUE_SEED (draws), BENCH_DATABASE_URL, CATALOGUE_DATA_DIR
 * (a PGlite DATA_DIR to keep and reuse between runs), CATALOGUE_ONLY (comma-separated substrings: run only the scenarios matching one),
 * CATALOGUE_CACHE (passed to the API; default off), SEARCH_INDEX_MIN_VIDEOS (passed to the API: a number above the
 * catalogue's measures the database's own search), SITEMAP_URLS_PER_FILE (passed to the API, which reads it from the
 * environment). The scenarios start once the API's search index is loaded.
 */
const VIDEOS = Number(process.env.CATALOGUE_VIDEOS ?? 100_000);
const RUNS = Number(process.env.CATALOGUE_RUNS ?? 200);
const SEED = Number(process.env.CATALOGUE_SEED ?? 1);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || undefined;
const KEEP_DIR = process.env.CATALOGUE_DATA_DIR || undefined;
const ONLY = process.env.CATALOGUE_ONLY || undefined;
const LIMIT = 24;
const SITEMAP_URLS_PER_FILE = Number(process.env.SITEMAP_URLS_PER_FILE || 50_000);

interface Taxon {
  id: string;
  videos: number;
}

/** What the scenarios draw from, read once from the database before the API starts. */
interface Universe {
  published: number;
  ids: number[];
  bigCategories: Taxon[];
  smallCategories: Taxon[];
  performers: Taxon[];
  /** The three biggest tags, and the smaller half. */
  bigTags: Taxon[];
  smallTags: Taxon[];
  /** Published videos matching each word (and each three-letter prefix) searched. */
  matches: Map<string, number>;
  /** Published videos matching each filter of FILTERS (the database's count, taken before the API starts). */
  filtered: Map<string, number>;
}

/**
 * The listing filters (issue #34) a visitor picks, alone and combined: the filter bar's lengths, qualities and
 * upload windows, and mixes with a category and a search word. Each scenario draws the sort and the page.
 */
const FILTERS: { label: string; params: Record<string, string>; sql: string }[] = [
  { label: 'under 10 min', params: { maxDuration: '599' }, sql: 'duration <= 599' },
  { label: '10–20 min', params: { minDuration: '600', maxDuration: '1199' }, sql: 'duration BETWEEN 600 AND 1199' },
  { label: 'over 20 min', params: { minDuration: '1200' }, sql: 'duration >= 1200' },
  { label: 'hd', params: { quality: 'hd' }, sql: 'rendition_height >= 720' },
  { label: '4k', params: { quality: '4k' }, sql: 'rendition_height >= 2160' },
  { label: 'this week', params: { uploaded: 'week' }, sql: "upload_date >= now() - interval '7 days'" },
  { label: 'this year', params: { uploaded: 'year' }, sql: "upload_date >= now() - interval '365 days'" },
  { label: '4k · over 20 min · this year', params: { quality: '4k', minDuration: '1200', uploaded: 'year' }, sql: "rendition_height >= 2160 AND duration >= 1200 AND upload_date >= now() - interval '365 days'" },
];

interface Scenario {
  name: string;
  /** The next request's path and query. */
  next: () => string;
  /** Sent with every request (a member's token). */
  headers?: Record<string, string>;
}

interface Result {
  scenario: string;
  runs: number;
  p50ms: number;
  p99ms: number;
  maxms: number;
  meanms: number;
  errors: number;
}

const random = rng(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
/** A page drawn uniformly from the first to the last one a listing of `total` videos has (at most MAX_PAGE). */
const anyPage = (total: number) => 1 + Math.floor(random() * Math.max(1, Math.min(MAX_PAGE, Math.ceil(total / LIMIT))));
const prefixes = [...new Set(TITLE_WORDS.filter((w) => w.length >= 3).map((w) => w.slice(0, 3).toLowerCase()))];
const words = [...new Set(TITLE_WORDS.map((w) => w.toLowerCase()))];

async function seed(db: DataSource): Promise<number> {
  const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM videos WHERE status = 'ready'`);
  if (Number(n) >= VIDEOS) return 0;
  const started = Date.now();
  const catalog = generateCatalog({ videos: VIDEOS - Number(n), seed: 1, slugTag: Date.now().toString(36) });
  // writeCatalog ends with VACUUM ANALYZE: index-only scans need the visibility map it sets.
  await writeCatalog(db, catalog);
  return (Date.now() - started) / 1000;
}

/**
 * Tags for a catalogue seeded before tags existed (a reused BENCH_DATABASE_URL): the generator's tags, by position
 * over the published videos in id order, as a fresh seed would have them.
 */
async function seedTags(db: DataSource): Promise<void> {
  const [{ tagged }] = await db.query<{ tagged: boolean }[]>('SELECT EXISTS (SELECT 1 FROM video_tags) AS tagged');
  if (tagged) return;
  const ids = (await db.query<{ id: number }[]>(`SELECT id FROM videos WHERE status = 'ready' ORDER BY id`)).map((r) => Number(r.id));
  const { tags, videos } = generateCatalog({ videos: ids.length, seed: 1 });
  await db.query('INSERT INTO tags (id, name) SELECT * FROM unnest($1::varchar[], $2::varchar[]) ON CONFLICT DO NOTHING', [tags.map((t) => t.id), tags.map((t) => t.name)]);
  const pairs = videos.flatMap((video, i) => video.tagIds.map((tag) => [ids[i], tag] as const));
  for (let i = 0; i < pairs.length; i += 50_000) {
    const batch = pairs.slice(i, i + 50_000);
    await db.query('INSERT INTO video_tags (video_id, tag_id) SELECT * FROM unnest($1::int[], $2::varchar[]) ON CONFLICT DO NOTHING', [batch.map((p) => p[0]), batch.map((p) => p[1])]);
  }
  await db.query('VACUUM ANALYZE video_tags');
}

/** Members with follows, as a site's would be: FOLLOWERS of them, each following 10 performers (10,000 rows). */
const FOLLOWERS = 1_000;

async function seedFollows(db: DataSource, performers: Taxon[]): Promise<void> {
  const [{ n }] = await db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM performer_follows');
  if (Number(n) >= FOLLOWERS * 10) return;
  const ids = performers.map((p) => p.id);
  const emails = Array.from({ length: FOLLOWERS }, (_, i) => `follower-${Date.now().toString(36)}-${i}@bench.invalid`);
  const users = await db.query<{ id: string }[]>(
    `INSERT INTO users (email, password_hash, display_name) SELECT e, 'not-a-hash', 'Follower' FROM unnest($1::varchar[]) AS e RETURNING id`,
    [emails],
  );
  const pairs = users.flatMap((user) => [...new Set(Array.from({ length: 10 }, () => pick(ids)))].map((performer) => [user.id, performer]));
  await db.query(
    `INSERT INTO performer_follows (user_id, performer_id) SELECT * FROM unnest($1::uuid[], $2::varchar[]) ON CONFLICT DO NOTHING`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  await db.query('ANALYZE performer_follows');
}

/**
 * Members who read their feed of followed performers' videos (GET /api/me/followed-videos): one following the
 * 10 busiest performers (the heaviest feed), one 10 picked at random, one the most a member may (500).
 */
async function followingScenarios(base: string, u: Universe): Promise<Scenario[]> {
  const member = async (label: string, performers: Taxon[]): Promise<Scenario> => {
    const email = `reader-${label.replace(/\W+/g, '-')}-${Date.now().toString(36)}@bench.invalid`;
    const res = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench member password', displayName: 'Bench reader' }),
    });
    if (res.status !== 201) throw new Error(`registering a bench member answered ${res.status}`);
    const headers = { authorization: `Bearer ${((await res.json()) as { accessToken: string }).accessToken}` };
    for (const performer of performers) {
      const follow = await fetch(`${base}/api/me/following/${performer.id}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
      if (follow.status !== 200) throw new Error(`following ${performer.id} answered ${follow.status}`);
    }
    const total = performers.reduce((sum, p) => sum + p.videos, 0);
    return { name: `followed feed · ${label}`, headers, next: () => `/api/me/followed-videos?page=${anyPage(Math.min(total, u.published))}&limit=${LIMIT}` };
  };
  const shuffled = [...u.performers].sort(() => random() - 0.5);
  return [
    await member('10 busiest', u.performers.slice(0, 10)),
    await member('10 random', shuffled.slice(0, 10)),
    await member(`${Math.min(500, u.performers.length)} random`, shuffled.slice(0, 500)),
  ];
}

/** Videos given a year of days with views and likes (the rest have the few days the seed gave them). */
const STATS_YEAR_VIDEOS = 2_000;
const BENCH_ADMIN = { email: 'bench-admin@bench.invalid', password: 'bench keeper of the keys' };

/**
 * A year of per-day rows (issue #15's measure): the first STATS_YEAR_VIDEOS published videos get a row for each
 * of the last 365 days (730,000 rows with the seed's own), once per database.
 */
async function seedStatsYear(db: DataSource, ids: number[]): Promise<void> {
  const sample = ids.slice(0, STATS_YEAR_VIDEOS);
  const [{ n }] = await db.query<{ n: number }[]>(
    'SELECT count(*)::int AS n FROM video_daily_stats WHERE video_id = $1 AND day < CURRENT_DATE - 300',
    [sample[0] ?? 0],
  );
  if (Number(n) > 0 || sample.length === 0) return;
  await db.query(
    `INSERT INTO video_daily_stats (video_id, day, views, likes, counted_views)
     SELECT v, CURRENT_DATE - d, (v * 7 + d) % 13, (v + d) % 3, (v * 31 + d * 17) % 97
     FROM unnest($1::int[]) AS v, generate_series(0, 364) AS d
     ON CONFLICT (video_id, day) DO UPDATE SET counted_views = EXCLUDED.counted_views`,
    [sample],
  );
  await db.query('ANALYZE video_daily_stats');
}

/** A year of the site for the dashboard: 100 signups a day (36,500 members), an upload a day per 365 videos, 2,000 open removal requests. */
async function seedDashboardYear(db: DataSource, ids: number[]): Promise<void> {
  const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM users WHERE email LIKE 'bench-signup-%'`);
  if (Number(n) > 0) return;
  await db.query(
    `INSERT INTO site_daily_stats (day, views, likes)
     SELECT CURRENT_DATE - d, 50000 + (d * 7919) % 20000, 900 + (d * 31) % 300 FROM generate_series(0, 364) AS d
     ON CONFLICT (day) DO NOTHING`,
  );
  await db.query(
    `INSERT INTO users (email, password_hash, display_name, created_at)
     SELECT 'bench-signup-' || i || '@bench.invalid', 'not-a-hash', 'Member', now() - make_interval(mins => (i * 14) % 525600)
     FROM generate_series(1, 36500) AS i`,
  );
  // Every video was ingested once over the year: most done (about its duration's worth of processing), some failed.
  await db.query(
    `INSERT INTO ingest_jobs (video_id, kind, state, attempts, created_at, started_at, finished_at, updated_at, media_seconds, processing_seconds)
     SELECT v, 'ingest', CASE WHEN v % 50 = 0 THEN 'failed' ELSE 'done' END, 1, t, t, t + make_interval(secs => 30 + v % 300), t,
            CASE WHEN v % 50 = 0 THEN NULL ELSE 60 + v % 1200 END, CASE WHEN v % 50 = 0 THEN NULL ELSE 30 + v % 300 END
     FROM (SELECT v, now() - make_interval(mins => (v * 37) % 525600) AS t FROM unnest($1::int[]) AS v) s`,
    [ids],
  );
  await db.query(
    `INSERT INTO removal_requests (video_ids, reason, contact, created_at, last_reported_at)
     SELECT ARRAY[($1::int[])[1 + i % cardinality($1::int[])]], (ARRAY['underage', 'no-consent', 'illegal', 'copyright', 'other'])[1 + i % 5],
            'bench@bench.invalid', now() - make_interval(hours => i * 3), now() - make_interval(hours => i * 3)
     FROM generate_series(1, 2000) AS i`,
    [ids.slice(0, 1000)],
  );
  // As autovacuum leaves them: visible to index-only scans, with statistics.
  for (const table of ['users', 'ingest_jobs', 'removal_requests', 'site_daily_stats']) await db.query(`VACUUM ANALYZE ${table}`);
}

/** An admin reading videos' statistics (GET /api/admin/videos/{id}/stats): 90 days, any video. */
async function statsScenarios(base: string, u: Universe): Promise<Scenario[]> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (res.status !== 200) throw new Error(`signing the bench admin in answered ${res.status}`);
  const headers = { authorization: `Bearer ${((await res.json()) as { accessToken: string }).accessToken}` };
  const year = u.ids.slice(0, STATS_YEAR_VIDEOS);
  return [
    { name: 'video stats · 90 days, a year of rows', headers, next: () => `/api/admin/videos/${pick(year)}/stats?days=90` },
    { name: 'video stats · 30 days, any video', headers, next: () => `/api/admin/videos/${pick(u.ids)}/stats?days=30` },
    { name: 'dashboard · 90 days', headers, next: () => '/api/admin/dashboard?days=90' },
    { name: 'dashboard · 30 days', headers, next: () => '/api/admin/dashboard?days=30' },
  ];
}

async function universe(db: DataSource): Promise<Universe> {
  const ids = (await db.query<{ id: number }[]>(`SELECT id FROM videos WHERE status = 'ready'`)).map((r) => Number(r.id));
  const taxa = async (table: string, column: string) =>
    (
      await db.query<{ id: string; videos: number }[]>(
        `SELECT t.${column} AS id, count(*)::int AS videos FROM ${table} t JOIN videos v ON v.id = t.video_id AND v.status = 'ready'
         GROUP BY t.${column} ORDER BY videos DESC, id`,
      )
    ).map((r) => ({ id: r.id, videos: Number(r.videos) }));
  const categories = await taxa('video_categories', 'category_id');
  const performers = await taxa('video_performers', 'performer_id');
  const tags = await taxa('video_tags', 'tag_id');
  const matches = new Map<string, number>();
  for (const term of [...words, ...prefixes]) {
    const [{ n }] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM videos WHERE status = 'ready' AND search_vector @@ to_tsquery('english', $1)`,
      [`${term}:*`],
    );
    matches.set(term, Number(n));
  }
  // A catalogue seeded before rendition_height existed (a reused BENCH_DATABASE_URL) gets the generator's heights.
  const [{ unknown }] = await db.query<{ unknown: boolean }[]>(`SELECT NOT EXISTS (SELECT 1 FROM videos WHERE rendition_height IS NOT NULL) AS unknown`);
  if (unknown) {
    await db.query(`UPDATE videos SET rendition_height = (ARRAY[480, 720, 1080, 720, 360, 1080, 720, 1080, 720, 480, 1080, 720, 1080, 720, 1080, 720, 480, 1080, 720, 2160])[1 + id % 20]`);
    await db.query('VACUUM ANALYZE videos');
  }
  const filtered = new Map<string, number>();
  for (const filter of FILTERS) {
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM videos WHERE status = 'ready' AND ${filter.sql}`);
    filtered.set(filter.label, Number(n));
  }
  return {
    published: ids.length,
    ids,
    filtered,
    bigCategories: categories.slice(0, 3),
    smallCategories: categories.slice(Math.floor(categories.length / 2)),
    performers,
    bigTags: tags.slice(0, 3),
    smallTags: tags.slice(Math.floor(tags.length / 2)),
    matches,
  };
}

function scenarios(u: Universe): Scenario[] {
  const list: Scenario[] = [];
  const listing = (params: Record<string, string | number>) => `/api/videos?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;
  // The floor every scenario stands on: a request that does nothing (liveness), and one that asks the database and
  // Redis once each (health). A listing's tail over these is the listing's own.
  list.push({ name: 'floor · live', next: () => '/api/health/live' });
  list.push({ name: 'floor · health', next: () => '/api/health' });
  for (const sort of VIDEO_SORTS) {
    list.push({ name: `all · ${sort}`, next: () => listing({ sort, page: anyPage(u.published) }) });
  }
  const byTaxon = (label: string, key: 'category' | 'performer' | 'tag', taxa: Taxon[], sort: VideoSort): Scenario => ({
    name: `${label} · ${sort}`,
    next: () => {
      const taxon = pick(taxa);
      return listing({ [key]: taxon.id, sort, page: anyPage(taxon.videos) });
    },
  });
  for (const sort of VIDEO_SORTS) list.push(byTaxon('big category', 'category', u.bigCategories, sort));
  for (const sort of VIDEO_SORTS) list.push(byTaxon('small category', 'category', u.smallCategories, sort));
  for (const sort of VIDEO_SORTS) list.push(byTaxon('performer', 'performer', u.performers, sort));
  for (const sort of VIDEO_SORTS) list.push(byTaxon('big tag', 'tag', u.bigTags, sort));
  for (const sort of VIDEO_SORTS) list.push(byTaxon('small tag', 'tag', u.smallTags, sort));
  const search = (label: string, terms: string[], sort: VideoSort): Scenario => ({
    name: `${label} · ${sort}`,
    next: () => {
      const q = pick(terms);
      return listing({ q, sort, page: anyPage(u.matches.get(q) ?? 0) });
    },
  });
  for (const sort of VIDEO_SORTS) list.push(search('word search', words, sort));
  for (const sort of VIDEO_SORTS) list.push(search('3-letter prefix', prefixes, sort));
  // Filtered listings: any sort, any page of the filter's matches (page 1 of a mix with a category or a search).
  for (const filter of FILTERS) {
    list.push({ name: `filtered · ${filter.label}`, next: () => listing({ ...filter.params, sort: pick(VIDEO_SORTS), page: anyPage(u.filtered.get(filter.label) ?? 0) }) });
  }
  list.push({ name: 'filtered · big category + hd', next: () => listing({ category: pick(u.bigCategories).id, quality: 'hd', sort: pick(VIDEO_SORTS) }) });
  list.push({ name: 'filtered · big tag + hd', next: () => listing({ tag: pick(u.bigTags).id, quality: 'hd', sort: pick(VIDEO_SORTS) }) });
  list.push({ name: 'filtered · all but a big tag', next: () => listing({ exclude: `tag:${pick(u.bigTags).id}`, sort: pick(VIDEO_SORTS), page: anyPage(u.published / 2) }) });
  list.push({ name: 'filtered · word + 10–20 min', next: () => listing({ q: pick(words), minDuration: '600', maxDuration: '1199', sort: pick(VIDEO_SORTS) }) });
  list.push({ name: 'related', next: () => `/api/videos/${pick(u.ids)}/related` });
  list.push({ name: 'detail', next: () => `/api/videos/${pick(u.ids)}` });
  // The video sitemaps: one file per block of SITEMAP_URLS_PER_FILE ids holding a published video (docs/seo.md,
  // "Sitemaps and robots.txt"), 50,000 URLs at most; with CATALOGUE_CACHE=off every request builds its file.
  const sitemapFiles = [...new Set(u.ids.map((id) => Math.ceil(id / SITEMAP_URLS_PER_FILE)))];
  list.push({ name: 'sitemap file', next: () => `/sitemaps/videos-${pick(sitemapFiles)}.xml` });
  list.push({ name: 'sitemap index', next: () => '/sitemap.xml' });
  return ONLY ? list.filter((s) => ONLY.split(',').some((part) => s.name.includes(part))) : list;
}

function startApi(env: Record<string, string>, port: number): Promise<ChildProcess> {
  // CATALOGUE_NODE_FLAGS: Node's own flags for the API, say `--trace-gc` to see what its collections cost.
  const flags = (process.env.CATALOGUE_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, API_MAIN], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', flags.length ? 'inherit' : 'ignore', 'inherit'],
  });
  return waitUntilReady(child, `http://127.0.0.1:${port}/api/health`, 'the API', 300_000);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (n: number) => Number(n.toFixed(1));

/** One request at a time, timed from the client: what a visitor waits for, the HTTP round trip included. */
async function measure(api: string, scenario: Scenario): Promise<Result> {
  const headers = scenario.headers ?? {};
  for (let i = 0; i < 5; i++) await timedGet(api + scenario.next(), headers); // warm the code path, not the data
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < RUNS; i++) {
    const url = api + scenario.next();
    const started = performance.now();
    const { status } = await timedGet(url, headers);
    times.push(performance.now() - started);
    if (status !== 200) {
      errors++;
      if (errors <= 3) console.error(`${status} for ${url}`);
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    scenario: scenario.name,
    runs: RUNS,
    p50ms: round(percentile(sorted, 50)),
    p99ms: round(percentile(sorted, 99)),
    maxms: round(sorted[sorted.length - 1]),
    meanms: round(times.reduce((a, b) => a + b, 0) / times.length),
    errors,
  };
}

/** Waits while the API loads its search index (GET /api/health says `loading`); answers its state and the wait. */
async function searchIndexReady(base: string): Promise<{ state: string; ms: number }> {
  const started = Date.now();
  for (;;) {
    // A reused keep-alive socket can be reset while the index load holds the event loop: ask again.
    const health = (await fetch(`${base}/api/health`).then((res) => res.json()).catch(() => ({ searchIndex: 'loading' }))) as { searchIndex?: string };
    const state = health.searchIndex ?? 'off';
    if (state !== 'loading' || Date.now() - started > 600_000) return { state, ms: Date.now() - started };
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  const dataDir = KEEP_DIR ?? mkdtempSync(path.join(tmpdir(), 'bench-catalogue-'));
  mkdirSync(dataDir, { recursive: true });
  let api: ChildProcess | undefined;
  try {
    const db = await openDataSource(dataSourceOptions({ databaseUrl: DATABASE_URL ?? null, dataDir, inMemoryDatabase: false }));
    const database = isServer(db) ? 'postgres' : 'pglite';
    const seedSeconds = await seed(db);
    await seedTags(db);
    const u = await universe(db);
    const wantFollowing = !ONLY || ONLY.split(',').some((part) => 'followed feed'.includes(part) || part.includes('followed'));
    if (wantFollowing) await seedFollows(db, u.performers);
    const wantStats = !ONLY || ONLY.split(',').some((part) => 'video stats'.includes(part) || part.includes('stats') || 'dashboard'.includes(part));
    if (wantStats) {
      await seedStatsYear(db, u.ids);
      await seedDashboardYear(db, u.ids);
    }
    await db.destroy();
    console.log(
      `${u.published} published videos on ${database}` +
        (seedSeconds ? `, seeded in ${seedSeconds.toFixed(0)} s (${Math.round(VIDEOS / seedSeconds)} videos/s)` : ' (reused)') +
        `; categories ${u.bigCategories.map((c) => `${c.id} ${c.videos}`).join(', ')} … smallest ${u.smallCategories.at(-1)?.videos}; ` +
        `busiest performer ${u.performers[0]?.videos}.`,
    );

    const port = await freePort();
    api = await startApi(
      {
        NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'false', HOST: '127.0.0.1',
        RATE_LIMIT_WRITE: '0', RATE_LIMIT_READ: '0', PUBLIC_URL: `http://127.0.0.1:${port}`, JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
        MEDIA_SIGNING_KEY: 'bench-signing-key-0000', CATALOGUE_CACHE: process.env.CATALOGUE_CACHE ?? 'off',
        ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password,
        ...(process.env.SEARCH_INDEX_MIN_VIDEOS ? { SEARCH_INDEX_MIN_VIDEOS: process.env.SEARCH_INDEX_MIN_VIDEOS } : {}),
        ...(DATABASE_URL ? { DATABASE_URL } : {}),
      },
      port,
    );
    const searchIndex = await searchIndexReady(`http://127.0.0.1:${port}`);
    console.log(`Search index: ${searchIndex.state}${searchIndex.state === 'ready' ? ` after ${searchIndex.ms} ms` : ''}`);
    const results: Result[] = [];
    const following = wantFollowing ? await followingScenarios(`http://127.0.0.1:${port}`, u) : [];
    const stats = wantStats ? await statsScenarios(`http://127.0.0.1:${port}`, u) : [];
    for (const scenario of [...scenarios(u), ...following, ...stats]) {
      const result = await measure(`http://127.0.0.1:${port}`, scenario);
      results.push(result);
      console.log(`${result.scenario.padEnd(30)} p50 ${String(result.p50ms).padStart(6)} ms   p99 ${String(result.p99ms).padStart(6)} ms`);
    }
    console.log(`\n${u.published} videos on ${database}, ${RUNS} requests per scenario from one client, caches ${process.env.CATALOGUE_CACHE ?? 'off'}:`);
    console.table(results.map((r) => ({ scenario: r.scenario, 'p50 ms': r.p50ms, 'p99 ms': r.p99ms, 'max ms': r.maxms, errors: r.errors })));

    const out = RESULTS_DIR;
    mkdirSync(out, { recursive: true });
    const file = path.join(out, `catalogue-${database}-${VIDEOS}.json`);
    writeFileSync(file, JSON.stringify({ when: new Date().toISOString(), database, videos: u.published, runs: RUNS, seedSeconds, searchIndex, results }, null, 2));
    console.log(`Written to ${file}`);
    if (results.some((r) => r.errors > 0)) {
      console.error('Some requests failed.');
      process.exitCode = 1;
    }
  } finally {
    api?.kill('SIGTERM');
    if (!KEEP_DIR && !DATABASE_URL) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
