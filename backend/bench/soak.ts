import 'reflect-metadata';
import { editPrecondition, VIDEO_TITLE_MAX_LENGTH, type EditableVideo, type ReadCounts } from '@hunktube/shared';
import Redis from 'ioredis';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import * as path from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { dataSourceOptions, openDataSource } from '../src/database/data-source';
import { generateCatalog, rng, type GeneratedCatalog } from '../src/database/seeds/catalog-generator';
import { writeCatalog } from '../src/database/seeds/catalog-writer';
import { ffmpegPath } from '../src/media/ffmpeg.runner';
import { freePort } from './free-port';
import { waitUntilReady } from './ready';
import { API_MAIN, RESULTS_DIR } from './paths';

/**
 * `npm run soak`: the real API (production mode, its own process) under mixed traffic for a long time, to show
 * that nothing fails, nothing is lost and memory stays flat. Phase 1 measures the capacity of the whole mix
 * (reads, views, trending signals and likes from many distinct viewers, members' list and playlist writes, admin
 * title edits with If-Match) in a closed loop; phase 2 sends the same mix, and one upload in the middle, at a
 * steady rate, half that capacity. At the end the buffered counts are flushed and every touched
 * video's views, likes and trending signals, through the API and then in the database, must equal its start
 * value plus what the API acknowledged; members' lists must equal what they were told.
 *
 * Settings: SOAK_SECONDS (600), SOAK_VIDEOS (5000), SOAK_RATE (requests/s; default half the measured capacity),
 * SOAK_CAPACITY_SECONDS (10), SOAK_CONNECTIONS (10, operations at a time in phase 1), SOAK_MEMBERS (20), SOAK_POOL
 * (300 videos that get the writes), SOAK_SEED (1), SOAK_DATABASE_URL and SOAK_REDIS_URL (a PostgreSQL server
 * database, filled, not emptied, and a Redis server; else PGlite in a temporary DATA_DIR), SOAK_HEAP_SNAPSHOTS (a
 * folder: the API writes a V8 heap snapshot there at the start and at the end of phase 2, to see what the heap
 * holds; `node backend/dist-bench/bench/heap-diff.js start.heapsnapshot end.heapsnapshot` compares them).
 */
function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name} must be a number from ${min} to ${max}`);
  return value;
}

// The dedupe windows are an hour (views, trending): a longer run would see repeat viewers counted again.
const SECONDS = setting('SOAK_SECONDS', 600, 10, 3300);
const VIDEOS = setting('SOAK_VIDEOS', 5000, 500, 1_000_000);
const RATE = process.env.SOAK_RATE ? setting('SOAK_RATE', 0, 1, 100_000) : null;
const CAPACITY_SECONDS = setting('SOAK_CAPACITY_SECONDS', 10, 2, 120);
const CONNECTIONS = setting('SOAK_CONNECTIONS', 10, 1, 1000);
const MEMBERS = setting('SOAK_MEMBERS', 20, 2, 1000);
const POOL = setting('SOAK_POOL', 300, 20, 100_000);
const SEED = setting('SOAK_SEED', 1, 0, 2 ** 31);
const DATABASE_URL = process.env.SOAK_DATABASE_URL || undefined;
const REDIS_URL = process.env.SOAK_REDIS_URL || undefined;
const HEAP_SNAPSHOTS = process.env.SOAK_HEAP_SNAPSHOTS || undefined;
/** Past this many requests in flight the client skips a slot rather than queue (the server is falling behind). */
const MAX_IN_FLIGHT = 64;
const REQUEST_TIMEOUT_MS = 30_000;
/** "Flat": the heap retained at the end (after a forced GC) is at most this multiple of the start's. */
const HEAP_GROWTH_LIMIT = 1.2;
const SAMPLE_SECONDS = Math.max(10, Math.round(SECONDS / 10));

const random = rng(SEED);
const tag = Date.now().toString(36);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
/** Popular first: index 0 most often (as the catalogue generator draws categories and performers). */
const zipf = (n: number) => Math.min(n - 1, Math.floor(Math.exp(random() * Math.log(n + 1))) - 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const mb = (bytes: number) => round(bytes / 1024 ** 2);

// ---------------------------------------------------------------------------------------------------------------
// Recording

interface Failure {
  phase: string;
  kind: string;
  method: string;
  route: string;
  status: number;
  body: string;
  atSeconds: number;
}

class Recorder {
  readonly started = performance.now();
  readonly kinds = new Map<string, { ms: number[]; errors: number }>();
  readonly buckets: { requests: number; errors: number; ms: number[] }[] = [];
  constructor(
    readonly phase: string,
    private readonly bucketMs = Number.POSITIVE_INFINITY,
    /** Requests after the last window (the upload's follow-ups) count in the last one. */
    private readonly lastBucket = 0,
  ) {}

  elapsed(): number {
    return (performance.now() - this.started) / 1000;
  }

  add(kind: string, ms: number, ok: boolean): void {
    let k = this.kinds.get(kind);
    if (!k) this.kinds.set(kind, (k = { ms: [], errors: 0 }));
    k.ms.push(ms);
    if (!ok) k.errors++;
    if (Number.isFinite(this.bucketMs)) {
      const i = Math.min(this.lastBucket, Math.floor((performance.now() - this.started) / this.bucketMs));
      while (this.buckets.length <= i) this.buckets.push({ requests: 0, errors: 0, ms: [] });
      this.buckets[i].requests++;
      this.buckets[i].ms.push(ms);
      if (!ok) this.buckets[i].errors++;
    }
  }
}

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : 0;
}

interface KindRow {
  kind: string;
  requests: number;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  'max ms': number;
  errors: number;
}

function table(recorder: Recorder, seconds: number): KindRow[] {
  const rows: KindRow[] = [];
  let all: number[] = [];
  let errors = 0;
  for (const [kind, k] of [...recorder.kinds].sort((a, b) => b[1].ms.length - a[1].ms.length)) {
    const sorted = [...k.ms].sort((a, b) => a - b);
    all = all.concat(k.ms);
    errors += k.errors;
    rows.push({
      kind, requests: sorted.length, 'req/s': round(sorted.length / seconds, 2), 'p50 ms': round(percentile(sorted, 0.5)),
      'p99 ms': round(percentile(sorted, 0.99)), 'max ms': round(sorted.at(-1) ?? 0), errors: k.errors,
    });
  }
  all.sort((a, b) => a - b);
  rows.push({
    kind: 'all', requests: all.length, 'req/s': round(all.length / seconds, 1), 'p50 ms': round(percentile(all, 0.5)),
    'p99 ms': round(percentile(all, 0.99)), 'max ms': round(all.at(-1) ?? 0), errors,
  });
  return rows;
}

/** The first failures in full (an API that is down would fail every request); `failureCount` counts them all. */
const failures: Failure[] = [];
let failureCount = 0;
let recorder = new Recorder('setup');

/** Any answer the soak did not expect, or a wrong answer with an expected status: both are errors. */
function fail(kind: string, method: string, route: string, status: number, body: string): void {
  if (failureCount++ < 5000) failures.push({ phase: recorder.phase, kind, method, route, status, body: body.slice(0, 400), atSeconds: round(recorder.elapsed()) });
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

let api = '';

interface CallOptions {
  token?: string;
  userAgent?: string;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Statuses that are right here (default: any 2xx); provoked refusals list theirs. */
  expect?: readonly number[];
  /** With a provoked refusal: the errorCode it must carry. */
  errorCode?: string;
}

interface Answer<T> {
  ok: boolean;
  status: number;
  json: T;
  headers: Headers | null;
}

async function call<T = Record<string, unknown>>(kind: string, method: string, route: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'user-agent': options.userAgent ?? 'hunktube-soak', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const started = performance.now();
  let status = 0;
  let text: string;
  let responseHeaders: Headers | null = null;
  try {
    const res = await fetch(api + route, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    status = res.status;
    responseHeaders = res.headers;
    text = await res.text();
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    text = `network error: ${String(cause ?? error)}`;
  }
  const ms = performance.now() - started;
  let json: unknown = null;
  try {
    json = text && status ? JSON.parse(text) : null;
  } catch {
    // not JSON (a playlist, or an error page): kept as text in a failure
  }
  const statusOk = options.expect ? options.expect.includes(status) : status >= 200 && status < 300;
  const ok = statusOk && (!options.errorCode || (json as { errorCode?: unknown } | null)?.errorCode === options.errorCode);
  recorder.add(kind, ms, ok);
  if (!ok) fail(kind, method, route, status, text);
  return { ok, status, json: json as T, headers: responseHeaders };
}

/** A 2xx that says the wrong thing (a list that lost an item, an edit not applied): an error too. */
function wrong(kind: string, route: string, message: string): void {
  fail(kind, 'check', route, 200, message);
}

// ---------------------------------------------------------------------------------------------------------------
// The site's state as the soak knows it

interface PoolVideo {
  id: number;
  streamPath: string;
  title: string;
  start: { views: number; likes: number; trending: number; dailyLikes: number };
}

interface Playlist {
  id: number;
  videos: number[];
  reordered: boolean;
}

interface Member {
  index: number;
  id: string;
  token: string;
  name: string;
  busy: boolean;
  videos: number[];
  bookmarks: Set<number>;
  watchLater: Set<number>;
  likes: Set<number>;
  playlists: Playlist[];
  made: number;
}

interface VideoJson extends EditableVideo, ReadCounts {
  id: number;
  stream_path: string;
}

/**
 * A viewer is a guest (their network, named by X-Forwarded-For, which the API believes from loopback: a guest is
 * their network whatever the user agent) or a member (their token).
 */
type Viewer = { address: string } | { member: Member };

const pool: PoolVideo[] = [];
let allIds: number[] = [];
let catalog: GeneratedCatalog;
const members: Member[] = [];
let adminToken = '';
/** What the API acknowledged per video: distinct viewers' views and signals, likes answered 200. */
const counted = new Map<number, { views: number; likes: number; trending: number }>();
const viewSeen = new Set<string>();
const trendSeen = new Set<string>();
const likeSent = new Set<string>();
const viewsDone: { viewer: Viewer; id: number }[] = [];
const guestLikesDone: { viewer: Viewer; id: number }[] = [];
const editing = new Set<number>();
const titles = new Map<number, string>();
let viewerSeq = 0;
let edits = 0;

function bump(id: number, field: 'views' | 'likes' | 'trending'): void {
  let c = counted.get(id);
  if (!c) counted.set(id, (c = { views: 0, likes: 0, trending: 0 }));
  c[field]++;
}

/** Views and signals answer 200 again for a repeat: a (viewer, video) pair counts once, whichever answer came first. */
function countOnce(seen: Set<string>, key: string, id: number, field: 'views' | 'trending'): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  bump(id, field);
  return true;
}

function viewerKey(viewer: Viewer): string {
  return 'address' in viewer ? viewer.address : `member:${viewer.member.id}`;
}

function identity(viewer: Viewer): Pick<CallOptions, 'token' | 'headers'> {
  return 'address' in viewer ? { headers: { 'x-forwarded-for': viewer.address } } : { token: viewer.member.token };
}

/** A new guest: a new network of 10.0.0.0/8 (16 million of them). */
const newGuest = (): Viewer => {
  const n = viewerSeq++;
  return { address: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
};
const hot = (): PoolVideo => pool[zipf(pool.length)];

// ---------------------------------------------------------------------------------------------------------------
// The mix

const SORTS = ['newest', 'most-viewed', 'top-rated', 'trending', 'longest'];
const SEARCHES = ['pool party', 'workout', 'locker room', 'steamy', 'midnight shower', 'road trip', 'alex', 'beach day'];

function listingPath(): string {
  const q = new URLSearchParams();
  const r = random();
  if (r < 0.5) q.set('sort', pick(SORTS));
  else if (r < 0.85) {
    q.set('category', catalog.categories[zipf(catalog.categories.length)].id);
    if (random() < 0.3) q.set('sort', pick(SORTS));
  } else q.set('performer', catalog.performers[zipf(catalog.performers.length)].id);
  if (random() < 0.3) q.set('page', String(2 + Math.floor(random() * 4)));
  if (random() < 0.1) q.set('limit', '60');
  return `/api/videos?${q}`;
}

/** Mostly the popular videos, some of the whole catalogue (what caches do not hold). */
const someId = () => (random() < 0.7 ? hot().id : pick(allIds));

/** The public reads with their weights in the mix; phase 1 measures capacity on the same draw. */
const READS: [number, string, () => string][] = [
  [24, 'GET /api/videos (sorts, pages, taxa)', listingPath],
  [5, 'GET /api/videos?q=', () => `/api/videos?q=${encodeURIComponent(pick(SEARCHES))}`],
  [17, 'GET /api/videos/{id}', () => `/api/videos/${someId()}`],
  [8, 'GET /api/videos/{id}/related', () => `/api/videos/${someId()}/related`],
  [3, 'GET /api/categories', () => '/api/categories'],
  [2, 'GET /api/performers', () => '/api/performers'],
  [2, 'GET /api/site', () => '/api/site'],
  [7, 'GET /api/video/secure', () => `/api/video/secure?path=${encodeURIComponent(hot().streamPath)}`],
];

const READS_TOTAL = READS.reduce((sum, [w]) => sum + w, 0);

function drawRead(): [string, string] {
  let r = random() * READS_TOTAL;
  for (const [weight, kind, route] of READS) if ((r -= weight) < 0) return [kind, route()];
  return [READS[0][1], READS[0][2]()];
}

async function read(): Promise<void> {
  const [kind, route] = drawRead();
  const res = await call<{ secureUrl?: string }>(kind, 'GET', route);
  if (res.ok && route.startsWith('/api/video/secure') && !res.json?.secureUrl) wrong(kind, route, 'no secureUrl');
}

async function memberRead(): Promise<void> {
  const m = pick(members);
  const [kind, method, route, body] = pick([
    ['GET /api/me/{bookmarks,history,watch-later,likes}', 'GET', '/api/me/bookmarks', undefined],
    ['GET /api/me/{bookmarks,history,watch-later,likes}', 'GET', '/api/me/history', undefined],
    ['GET /api/me/{bookmarks,history,watch-later,likes}', 'GET', '/api/me/watch-later', undefined],
    ['GET /api/me/{bookmarks,history,watch-later,likes}', 'GET', '/api/me/likes', undefined],
    ['GET /api/playlists/get-user-playlists', 'GET', '/api/playlists/get-user-playlists', undefined],
    ['POST /api/video/get-bookmarks', 'POST', '/api/video/get-bookmarks', { userId: m.id }],
  ] as const);
  await call(kind, method, route, { token: m.token, body });
}

async function view(): Promise<void> {
  const r = random();
  if (r < 0.12 && viewsDone.length) {
    // A repeat within the hour: 200, the count unchanged.
    const { viewer, id } = pick(viewsDone);
    await call('POST /api/video/increment-views (repeat viewer)', 'POST', '/api/video/increment-views', { ...identity(viewer), body: { videoId: id } });
    return;
  }
  const viewer: Viewer = r < 0.22 ? { member: pick(members) } : newGuest();
  const { id } = hot();
  const res = await call('POST /api/video/increment-views', 'POST', '/api/video/increment-views', { ...identity(viewer), body: { videoId: id } });
  if (res.ok && countOnce(viewSeen, `${viewerKey(viewer)}|${id}`, id, 'views')) viewsDone.push({ viewer, id });
}

async function trending(): Promise<void> {
  // The watch page sends the signal for the viewer who just counted a view; some come from new viewers.
  const { viewer, id } = random() < 0.7 && viewsDone.length ? pick(viewsDone) : { viewer: newGuest(), id: hot().id };
  const res = await call('POST /api/video/add-trending', 'POST', '/api/video/add-trending', { ...identity(viewer), body: { videoId: id } });
  if (res.ok) countOnce(trendSeen, `${viewerKey(viewer)}|${id}`, id, 'trending');
}

async function guestLike(): Promise<void> {
  if (random() < 0.2 && guestLikesDone.length) {
    const { viewer, id } = pick(guestLikesDone);
    await call('POST /api/video/increment-likes (guest repeat: 409)', 'POST', '/api/video/increment-likes', {
      ...identity(viewer), body: { videoId: id }, expect: [409], errorCode: 'ALREADY_LIKED',
    });
    return;
  }
  let viewer: Viewer = newGuest();
  let id = hot().id;
  for (let i = 0; i < 5 && viewsDone.length; i++) {
    const seen = pick(viewsDone);
    if ('address' in seen.viewer && !likeSent.has(`${seen.viewer.address}|${seen.id}`)) {
      ({ viewer, id } = seen);
      break;
    }
  }
  const key = `${viewerKey(viewer)}|${id}`;
  likeSent.add(key);
  const res = await call('POST /api/video/increment-likes (guest)', 'POST', '/api/video/increment-likes', { ...identity(viewer), body: { videoId: id } });
  if (res.ok) {
    bump(id, 'likes');
    guestLikesDone.push({ viewer, id });
  }
}

/** One write of one member; a member does one thing at a time, so their lists are known exactly. */
async function memberWrite(): Promise<void> {
  let m: Member | undefined;
  for (let i = 0; i < 5 && !m; i++) {
    const candidate = pick(members);
    if (!candidate.busy) m = candidate;
  }
  if (!m) return read();
  m.busy = true;
  try {
    const r = random();
    if (r < 0.22) await toggle(m, 'bookmarks');
    else if (r < 0.36) await toggle(m, 'watchLater');
    else if (r < 0.52) {
      await call('POST /api/video/add-history', 'POST', '/api/video/add-history', { token: m.token, body: { videoId: hot().id, userId: m.id } });
    } else if (r < 0.64) await memberLike(m);
    else if (r < 0.7) {
      const res = await call<{ bookmarks: { id: number }[] }>('POST /api/video/get-bookmarks', 'POST', '/api/video/get-bookmarks', { token: m.token, body: { userId: m.id } });
      if (res.ok) sameSet('POST /api/video/get-bookmarks', `member ${m.index}`, res.json.bookmarks.map((v) => v.id), m.bookmarks);
    } else await playlistStep(m);
  } finally {
    m.busy = false;
  }
}

async function toggle(m: Member, list: 'bookmarks' | 'watchLater'): Promise<void> {
  const id = pick(m.videos);
  const set = m[list];
  const action = set.has(id) ? 'delete' : 'create';
  const [kind, route, field] = list === 'bookmarks'
    ? ['POST /api/video/add-to-bookmarks', '/api/video/add-to-bookmarks', 'bookmarked'] as const
    : ['POST /api/video/add-to-watch-later', '/api/video/add-to-watch-later', 'queued'] as const;
  const res = await call<Record<string, unknown>>(kind, 'POST', route, { token: m.token, body: { videoId: id, userId: m.id, action } });
  if (!res.ok) return;
  if (res.json[field] !== (action === 'create')) wrong(kind, route, `${action} of ${id} answered ${field}: ${String(res.json[field])}`);
  if (action === 'create') set.add(id);
  else set.delete(id);
}

async function memberLike(m: Member): Promise<void> {
  if (m.likes.size && random() < 0.25) {
    await call('POST /api/video/increment-likes (member repeat: 409)', 'POST', '/api/video/increment-likes', {
      token: m.token, body: { videoId: pick([...m.likes]) }, expect: [409], errorCode: 'ALREADY_LIKED',
    });
    return;
  }
  const { id } = hot();
  if (m.likes.has(id)) return;
  const res = await call('POST /api/video/increment-likes (member)', 'POST', '/api/video/increment-likes', { token: m.token, body: { videoId: id } });
  if (res.ok) {
    m.likes.add(id);
    bump(id, 'likes');
  }
}

async function playlistStep(m: Member): Promise<void> {
  if (!m.playlists.length || (m.playlists.length < 3 && random() < 0.25)) {
    const video = pick(m.videos);
    const res = await call<{ data: { playlist_id: number } }>('POST /api/playlists/create-playlist', 'POST', '/api/playlists/create-playlist', {
      token: m.token, body: { video_id: video, title: `Soak ${m.index} list ${++m.made}`, user_id: m.id, display_name: m.name }, expect: [201],
    });
    if (res.ok) m.playlists.push({ id: res.json.data.playlist_id, videos: [video], reordered: false });
    return;
  }
  const p = pick(m.playlists);
  const r = random();
  if (r < 0.15) {
    const route = `/api/playlists/${p.id}`;
    const res = await call<{ data: { id: number }[] }>('GET /api/playlists/{id}', 'GET', route, { token: m.token });
    const got = res.ok ? res.json.data.map((v) => v.id) : p.videos;
    if (got.join() !== p.videos.join()) wrong('GET /api/playlists/{id}', route, `order ${got.join()} instead of ${p.videos.join()}`);
  } else if (p.videos.length < 6) {
    const body = { playlistUserId: m.id, playlist_id: p.id };
    if (r < 0.22) {
      await call('POST /api/playlists/add-to-playlist (already in: 409)', 'POST', '/api/playlists/add-to-playlist', {
        token: m.token, body: { ...body, video_id: pick(p.videos) }, expect: [409], errorCode: '23505',
      });
      return;
    }
    const video = pick(m.videos.filter((v) => !p.videos.includes(v)));
    const res = await call('POST /api/playlists/add-to-playlist', 'POST', '/api/playlists/add-to-playlist', { token: m.token, body: { ...body, video_id: video } });
    if (res.ok) p.videos.push(video);
  } else if (!p.reordered) {
    const order = [...p.videos].sort(() => random() - 0.5);
    const res = await call('PUT /api/playlists/{id}/order', 'PUT', `/api/playlists/${p.id}/order`, { token: m.token, body: { video_ids: order } });
    if (res.ok) {
      p.videos = order;
      p.reordered = true;
    }
  } else if (r < 0.6) {
    const res = await call('DELETE /api/playlists/{id}/videos/{videoId}', 'DELETE', `/api/playlists/${p.id}/videos/${p.videos[0]}`, { token: m.token });
    if (res.ok) p.videos.shift();
  } else {
    const res = await call('DELETE /api/playlists/{id}', 'DELETE', `/api/playlists/${p.id}`, { token: m.token });
    if (res.ok) m.playlists.splice(m.playlists.indexOf(p), 1);
  }
}

/**
 * An admin edits a title, with the If-Match of a fresh read (docs/decisions.md, "Concurrent admin edits"), saved 0.5 to 2 s later:
 * counts moving meanwhile are no conflict, so anything but 200 is an error. Every tenth edit then sends the same, now outdated, If-Match
 * again: that one must answer 409.
 */
async function adminEdit(): Promise<void> {
  const video = hot();
  if (editing.has(video.id)) return read();
  editing.add(video.id);
  try {
    const read = await call<VideoJson>('GET /api/videos/{id} (admin, before an edit)', 'GET', `/api/videos/${video.id}`, { token: adminToken });
    if (!read.ok) return;
    const precondition = editPrecondition(read.json);
    // The panel stays open a moment while the video keeps counting views and likes: no conflict for that.
    await sleep(500 + random() * 1500);
    const n = ++edits;
    const title = `Soak edit ${n}: ${video.title}`.slice(0, VIDEO_TITLE_MAX_LENGTH).trimEnd();
    const res = await call<{ data: VideoJson }>('POST /api/admin/update-video (If-Match)', 'POST', '/api/admin/update-video', {
      token: adminToken, body: { id: video.id, title }, headers: { 'if-match': precondition },
    });
    if (!res.ok) return;
    titles.set(video.id, title);
    if (res.json.data.title !== title) wrong('POST /api/admin/update-video (If-Match)', '/api/admin/update-video', `title answered ${res.json.data.title}`);
    if (n % 10 === 0) {
      await call('POST /api/admin/update-video (outdated If-Match: 409)', 'POST', '/api/admin/update-video', {
        token: adminToken, body: { id: video.id, title: `${title} (stale)`.slice(0, VIDEO_TITLE_MAX_LENGTH) }, headers: { 'if-match': precondition }, expect: [409],
      });
    }
  } finally {
    editing.delete(video.id);
  }
}

const MIX: [number, () => Promise<void>][] = [
  [READS_TOTAL, read],
  [4, memberRead],
  [10, view],
  [6, trending],
  [2, guestLike],
  [9, memberWrite],
  [0.5, adminEdit],
];
const MIX_TOTAL = MIX.reduce((sum, [w]) => sum + w, 0);

function nextOp(): Promise<void> {
  let r = random() * MIX_TOTAL;
  for (const [weight, op] of MIX) {
    if ((r -= weight) < 0) return op();
  }
  return read();
}

/** Starts `op` `rate` times a second for `seconds`, on a clock, whatever the answers take (up to MAX_IN_FLIGHT). */
async function runAtRate(rate: number, seconds: number, op: () => Promise<void>): Promise<{ started: number; skipped: number }> {
  const total = Math.round(rate * seconds);
  const t0 = performance.now();
  let started = 0;
  let skipped = 0;
  const running = new Set<Promise<void>>();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
      while (started + skipped < due) {
        if (running.size >= MAX_IN_FLIGHT) {
          skipped++;
          continue;
        }
        started++;
        const p: Promise<void> = op()
          .catch((error: unknown) => fail('soak client', '-', '-', 0, `the soak itself threw: ${String(error)}`))
          .finally(() => running.delete(p));
        running.add(p);
      }
      if (started + skipped >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  await Promise.all(running);
  return { started, skipped };
}

// ---------------------------------------------------------------------------------------------------------------
// The upload in the middle

interface Job {
  state: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  error: string | null;
}

async function upload(clip: Buffer): Promise<{ seconds: number; videoId: number | null; state: string }> {
  const started = performance.now();
  const form = new FormData();
  form.set('title', `Soak upload ${tag}`);
  form.set('categories', catalog.categories[0].id);
  form.set('file', new Blob([clip], { type: 'video/mp4' }), 'soak-clip.mp4');
  const accepted = await call<{ id: number; job_id: number }>('POST /api/admin/videos (upload)', 'POST', '/api/admin/videos', { token: adminToken, form, expect: [202] });
  if (!accepted.ok) return { seconds: 0, videoId: null, state: 'refused' };
  const { id, job_id: jobId } = accepted.json;
  let job: Job | null = null;
  const deadline = Date.now() + 15 * 60_000;
  while (Date.now() < deadline) {
    await sleep(1000);
    const res = await call<{ data: Job }>('GET /api/admin/jobs/{id}', 'GET', `/api/admin/jobs/${jobId}`, { token: adminToken });
    if (res.ok && (res.json.data.state === 'done' || res.json.data.state === 'failed')) {
      job = res.json.data;
      break;
    }
  }
  const seconds = round((performance.now() - started) / 1000);
  if (job?.state !== 'done') {
    fail('upload', 'GET', `/api/admin/jobs/${jobId}`, 200, `the upload's job ended ${job?.state ?? 'not in 15 minutes'}: ${job?.error ?? ''}`);
    return { seconds, videoId: id, state: job?.state ?? 'timeout' };
  }
  const detail = await call<VideoJson>('GET /api/videos/{id} (the upload)', 'GET', `/api/videos/${id}`);
  if (detail.ok) {
    const secure = await call<{ secureUrl: string }>('GET /api/video/secure', 'GET', `/api/video/secure?path=${encodeURIComponent(detail.json.stream_path)}`);
    if (secure.ok) {
      const playlist = await call('GET {secureUrl} (the upload\'s HLS playlist)', 'GET', secure.json.secureUrl);
      const type = playlist.headers?.get('content-type') ?? '';
      if (playlist.ok && !type.includes('mpegurl')) wrong('GET {secureUrl}', secure.json.secureUrl, `content-type ${type}`);
    }
    // From now on the new upload is the hottest video of the pool.
    pool.unshift({ id, streamPath: detail.json.stream_path, title: detail.json.title, start: { views: 0, likes: 0, trending: 0, dailyLikes: 0 } });
  }
  return { seconds, videoId: id, state: job.state };
}

// ---------------------------------------------------------------------------------------------------------------
// The API process and its memory

function startApi(env: Record<string, string>, port: number, logFile: string): Promise<ChildProcess> {
  const log = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    ['--expose-gc', '-r', path.join(__dirname, 'soak-probe.js'), API_MAIN],
    { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', log, log, 'ipc'] },
  );
  closeSync(log);
  return waitUntilReady(child, `http://127.0.0.1:${port}/api/health`, 'The API', 120_000, `; see ${logFile}`);
}

async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  await exited;
  clearTimeout(timer);
}

interface MemorySample {
  label: string;
  atSeconds: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  heapUsedAfterGcMb: number;
  rssAfterGcMb: number;
  /** The API's event loop delay since the previous sample that reset it. */
  loopP99Ms: number;
  loopMaxMs: number;
  /** CPU time the API has used since it started (user + system, all its threads). */
  cpuMs: number;
}

let memorySeq = 0;

/** Memory now; `resetLoop` starts a new event loop delay window (the windowed samples and the start and end). */
function sampleMemory(child: ChildProcess, label: string, atSeconds: number, resetLoop = true): Promise<MemorySample> {
  return new Promise((resolve, reject) => {
    const id = ++memorySeq;
    const onMessage = (message: unknown) => {
      const m = message as {
        type?: string; id?: number; before: NodeJS.MemoryUsage; afterGc: NodeJS.MemoryUsage | null; eventLoop: { p99Ms: number; maxMs: number };
        cpuMs: number;
      };
      if (m.type !== 'soak-memory' || m.id !== id) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      const after = m.afterGc ?? m.before;
      resolve({
        label, atSeconds: round(atSeconds), rssMb: mb(m.before.rss), heapUsedMb: mb(m.before.heapUsed), heapTotalMb: mb(m.before.heapTotal),
        externalMb: mb(m.before.external), heapUsedAfterGcMb: mb(after.heapUsed), rssAfterGcMb: mb(after.rss),
        loopP99Ms: round(m.eventLoop.p99Ms), loopMaxMs: round(m.eventLoop.maxMs), cpuMs: m.cpuMs,
      });
    };
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error('The API did not answer the memory probe'));
    }, 15_000);
    child.on('message', onMessage);
    child.send({ type: 'soak-memory', id, resetLoop });
  });
}

/** With SOAK_HEAP_SNAPSHOTS, the API writes a heap snapshot (after a GC) to `<folder>/<label>.heapsnapshot`. */
function heapSnapshot(child: ChildProcess, label: string): Promise<void> {
  if (!HEAP_SNAPSHOTS) return Promise.resolve();
  mkdirSync(HEAP_SNAPSHOTS, { recursive: true });
  const file = path.resolve(HEAP_SNAPSHOTS, `${label}.heapsnapshot`);
  return new Promise((resolve) => {
    const id = ++memorySeq;
    const onMessage = (message: unknown) => {
      const m = message as { type?: string; id?: number; file?: string };
      if (m.type !== 'soak-heap-snapshot' || m.id !== id) return;
      child.off('message', onMessage);
      console.log(`  heap snapshot: ${m.file}`);
      resolve();
    };
    child.on('message', onMessage);
    child.send({ type: 'soak-heap-snapshot', id, file });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Setup and checks

async function setupMembers(): Promise<void> {
  for (let i = 0; i < MEMBERS; i++) {
    const name = `Soak member ${i}`;
    const email = `soak-${tag}-${i}@example.com`;
    const reg = await call<{ accessToken: string; user: { id: string } }>('POST /api/auth/register', 'POST', '/api/auth/register', {
      body: { email, password: 'soak-password-1', displayName: name }, expect: [201],
    });
    if (!reg.ok) throw new Error(`Could not register a member: ${reg.status} ${JSON.stringify(reg.json)}`);
    await call('PATCH /api/auth/me', 'PATCH', '/api/auth/me', { token: reg.json.accessToken, body: { displayName: name } });
    const login = await call<{ accessToken: string }>('POST /api/auth/login', 'POST', '/api/auth/login', { body: { email, password: 'soak-password-1' } });
    const videos = new Set<number>();
    while (videos.size < Math.min(12, pool.length)) videos.add(hot().id);
    members.push({
      index: i, id: reg.json.user.id, token: login.ok ? login.json.accessToken : reg.json.accessToken, name, busy: false, videos: [...videos],
      bookmarks: new Set(), watchLater: new Set(), likes: new Set(), playlists: [], made: 0,
    });
  }
}

function sameSet(kind: string, who: string, got: number[], want: Set<number>): boolean {
  const same = got.length === want.size && got.every((id) => want.has(id));
  if (!same) wrong(kind, who, `has [${[...got].sort((a, b) => a - b).join()}], expected [${[...want].sort((a, b) => a - b).join()}]`);
  return same;
}

async function allPages(kind: string, route: string, token: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; page < 100; page++) {
    const res = await call<{ data: { id: number }[]; total: number }>(kind, 'GET', `${route}?limit=60&page=${page}`, { token });
    if (!res.ok) break;
    ids.push(...res.json.data.map((v) => v.id));
    if (ids.length >= res.json.total || !res.json.data.length) break;
  }
  return ids;
}

/** Members' lists as the API has them against what the API answered each member during the run. */
async function checkMembers(): Promise<number> {
  let mismatches = 0;
  for (const m of members) {
    const who = `member ${m.index}`;
    if (!sameSet('lists: bookmarks', who, await allPages('GET /api/me/bookmarks', '/api/me/bookmarks', m.token), m.bookmarks)) mismatches++;
    if (!sameSet('lists: watch later', who, await allPages('GET /api/me/watch-later', '/api/me/watch-later', m.token), m.watchLater)) mismatches++;
    if (!sameSet('lists: likes', who, await allPages('GET /api/me/likes', '/api/me/likes', m.token), m.likes)) mismatches++;
    const lists = await call<{ data: { playlist_id: number; video_count: number }[] }>('GET /api/playlists/get-user-playlists', 'GET', '/api/playlists/get-user-playlists', { token: m.token });
    if (!lists.ok) continue;
    if (!sameSet('lists: playlists', who, lists.json.data.map((p) => p.playlist_id), new Set(m.playlists.map((p) => p.id)))) mismatches++;
    for (const p of m.playlists) {
      const res = await call<{ data: { id: number }[] }>('GET /api/playlists/{id}', 'GET', `/api/playlists/${p.id}`, { token: m.token });
      const got = res.ok ? res.json.data.map((v) => v.id) : [];
      if (got.join() !== p.videos.join()) {
        wrong('lists: playlist order', `${who}, playlist ${p.id}`, `[${got.join()}], expected [${p.videos.join()}]`);
        mismatches++;
      }
    }
  }
  return mismatches;
}

interface CountRow {
  id: number;
  field: string;
  start: number;
  counted: number;
  expected: number;
  api: number | null;
  database: number | null;
}

function expectedOf(v: PoolVideo) {
  const c = counted.get(v.id) ?? { views: 0, likes: 0, trending: 0 };
  return {
    views: v.start.views + c.views, likes: v.start.likes + c.likes, trending: v.start.trending + c.trending,
    dailyLikes: v.start.dailyLikes + c.likes, title: titles.get(v.id) ?? v.title,
  };
}

async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

async function readCountsFromDb(db: DataSource, ids: number[]) {
  const rows = await db.query<{ id: number; views: number; likes: number; title: string }[]>(
    'SELECT id, views, likes, title FROM videos WHERE id = ANY($1::int[])', [ids],
  );
  const daily = await db.query<{ video_id: number; trending: string; likes: string }[]>(
    `SELECT video_id, COALESCE(sum(views), 0) AS trending, COALESCE(sum(likes), 0) AS likes
     FROM video_daily_stats WHERE video_id = ANY($1::int[]) GROUP BY video_id`, [ids],
  );
  const byId = new Map<number, { views: number; likes: number; title: string; trending: number; dailyLikes: number }>();
  for (const r of rows) byId.set(Number(r.id), { views: Number(r.views), likes: Number(r.likes), title: r.title, trending: 0, dailyLikes: 0 });
  for (const d of daily) {
    const v = byId.get(Number(d.video_id));
    if (v) Object.assign(v, { trending: Number(d.trending), dailyLikes: Number(d.likes) });
  }
  return byId;
}

// ---------------------------------------------------------------------------------------------------------------
// The run

/** The catalogue, the pool of videos that get the writes (with their counts as the database has them). */
async function seed(dbOptions: DataSourceOptions): Promise<void> {
  const db = await openDataSource(dbOptions);
  try {
    catalog = generateCatalog({ videos: VIDEOS, seed: SEED, slugTag: tag });
    allIds = (await writeCatalog(db, catalog)).ids.map(Number);
    const chosen = [...allIds];
    for (let i = 0; i < Math.min(POOL, chosen.length); i++) {
      const j = i + Math.floor(random() * (chosen.length - i));
      [chosen[i], chosen[j]] = [chosen[j], chosen[i]];
    }
    const start = await readCountsFromDb(db, chosen.slice(0, POOL));
    for (const id of chosen.slice(0, POOL)) {
      const s = start.get(id);
      if (s) pool.push({ id, streamPath: '', title: s.title, start: { views: s.views, likes: s.likes, trending: s.trending, dailyLikes: s.dailyLikes } });
    }
  } finally {
    await db.destroy();
  }
}

/** A small real clip for the upload (6 s, 360p), made with the ffmpeg the pipeline uses. */
function makeClip(dir: string): Buffer {
  const clipPath = path.join(dir, 'soak-clip.mp4');
  execFileSync(ffmpegPath(), [
    '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=6', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clipPath,
  ]);
  return readFileSync(clipPath);
}

/** Stream paths of the pool, and a check that the API starts from the database's counts. */
async function readPool(): Promise<void> {
  await inBatches(pool, 8, async (v) => {
    const res = await call<VideoJson>('GET /api/videos/{id} (setup)', 'GET', `/api/videos/${v.id}`);
    if (!res.ok) return;
    v.streamPath = res.json.stream_path;
    if (res.json.views !== v.start.views || res.json.likes !== v.start.likes) {
      wrong('setup', `/api/videos/${v.id}`, `API counts ${res.json.views}/${res.json.likes}, database ${v.start.views}/${v.start.likes}`);
    }
  });
}

/**
 * Phase 1: phase 2's whole mix (reads, counters, members' writes, admin edits) as fast as it goes, CONNECTIONS
 * operations at a time, for CAPACITY_SECONDS after a 2 s warm-up. Its writes are acknowledged and checked at the
 * end like phase 2's. (It used to be the public reads alone, with autocannon; once hot reads were answered from
 * memory, half of that was more than the whole mix could ever sustain, and phase 2 only measured a queue.)
 */
async function measureCapacity(): Promise<KindRow> {
  const closedLoop = async (seconds: number) => {
    const end = performance.now() + seconds * 1000;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        await nextOp().catch((error: unknown) => fail('soak client', '-', '-', 0, `the soak itself threw: ${String(error)}`));
      }
    }));
  };
  recorder = new Recorder('capacity warm-up');
  await closedLoop(2);
  recorder = new Recorder('capacity');
  const started = performance.now();
  await closedLoop(CAPACITY_SECONDS);
  const row = table(recorder, (performance.now() - started) / 1000).at(-1) as KindRow;
  return { ...row, kind: 'the mix, closed loop' };
}

type UploadResult = Awaited<ReturnType<typeof upload>>;

/** Phase 2: the mix at `rate` for SECONDS, memory sampled every window, the upload in the middle. */
async function soakPhase(child: ChildProcess, rate: number, clip: Buffer) {
  await heapSnapshot(child, 'start');
  const memory: MemorySample[] = [await sampleMemory(child, 'start', 0)];
  recorder = new Recorder('soak', SAMPLE_SECONDS * 1000, Math.ceil(SECONDS / SAMPLE_SECONDS) - 1);
  const soak = recorder;
  const timeline: MemorySample[] = [];
  const sampler = setInterval(() => {
    sampleMemory(child, 'timeline', soak.elapsed()).then((s) => timeline.push(s), (e: unknown) => fail('memory probe', '-', '-', 0, String(e)));
  }, SAMPLE_SECONDS * 1000);
  // An admin presses "refresh views" once a minute: a flush, a trending recompute, every cache emptied.
  const refresher = setInterval(() => {
    void call('POST /api/admin/refresh-views', 'POST', '/api/admin/refresh-views', { token: adminToken, body: {} });
  }, 60_000);
  const middle: { upload?: Promise<UploadResult> } = {};
  const middleTimer = setTimeout(() => {
    middle.upload = sampleMemory(child, 'middle', soak.elapsed(), false).then((s) => {
      memory.push(s);
      console.log(`  middle: heap ${s.heapUsedAfterGcMb} MB after GC, RSS ${s.rssMb} MB; uploading a clip…`);
      return upload(clip);
    });
  }, (SECONDS * 1000) / 2);
  const clientCpu = process.cpuUsage();
  const schedule = await runAtRate(rate, SECONDS, nextOp);
  const clientCpuUsed = process.cpuUsage(clientCpu);
  clearInterval(sampler);
  clearInterval(refresher);
  clearTimeout(middleTimer);
  const uploadResult = middle.upload ? await middle.upload : null;
  const seconds = soak.elapsed();
  memory.push(await sampleMemory(child, 'end', seconds));
  await heapSnapshot(child, 'end');
  // Each window with the probe's sample at its end (the middle one does not start a new event loop window).
  const marks = [...timeline, ...memory].filter((s) => s.label !== 'middle');
  const near = (at: number) => marks.find((s) => Math.abs(s.atSeconds - at) < 5);
  const windows = soak.buckets.map((b, i) => {
    const sorted = [...b.ms].sort((x, y) => x - y);
    const from = near(i * SAMPLE_SECONDS);
    const to = near(Math.min(SECONDS, (i + 1) * SAMPLE_SECONDS));
    const cpu = from && to && to.atSeconds > from.atSeconds ? `${Math.round((to.cpuMs - from.cpuMs) / (to.atSeconds - from.atSeconds) / 10)} %` : '';
    return {
      from: `${i * SAMPLE_SECONDS} s`, requests: b.requests, 'req/s': round(b.requests / SAMPLE_SECONDS, 1), 'p50 ms': round(percentile(sorted, 0.5)),
      'p99 ms': round(percentile(sorted, 0.99)), errors: b.errors, 'API CPU': cpu, 'API loop delay p99/max ms': to ? `${to.loopP99Ms} / ${to.loopMaxMs}` : '',
      'heap after GC MB': to?.heapUsedAfterGcMb ?? '', 'RSS MB': to?.rssMb ?? '',
    };
  });
  const apiCpu = Math.round((memory[memory.length - 1].cpuMs - memory[0].cpuMs) / seconds / 10);
  const cpu = { apiPercent: apiCpu, clientPercent: Math.round((clientCpuUsed.user + clientCpuUsed.system) / 1000 / seconds / 10) };
  return { schedule, seconds, cpu, rows: table(soak, seconds), windows, memory, timeline, upload: uploadResult };
}

/** Every pool video's counts and title, through the API (after a flush) and in the database, against the expected. */
function compareCounts(apiVideos: Map<number, VideoJson>, dbVideos: Awaited<ReturnType<typeof readCountsFromDb>>) {
  const rows: CountRow[] = [];
  let titleMismatches = 0;
  for (const v of pool) {
    const want = expectedOf(v);
    const c = counted.get(v.id) ?? { views: 0, likes: 0, trending: 0 };
    const fromApi = apiVideos.get(v.id);
    const fromDb = dbVideos.get(v.id);
    const fields = [
      ['views', v.start.views, c.views, want.views, fromApi?.views ?? null, fromDb?.views ?? null],
      ['likes', v.start.likes, c.likes, want.likes, fromApi?.likes ?? null, fromDb?.likes ?? null],
      ['trending signals (daily stats)', v.start.trending, c.trending, want.trending, null, fromDb?.trending ?? null],
      ['likes (daily stats)', v.start.dailyLikes, c.likes, want.dailyLikes, null, fromDb?.dailyLikes ?? null],
    ] as const;
    for (const [field, start, n, expected, fromApiValue, fromDbValue] of fields) {
      const apiWrong = (field === 'views' || field === 'likes') && fromApiValue !== expected;
      if (apiWrong || fromDbValue !== expected) rows.push({ id: v.id, field, start, counted: n, expected, api: fromApiValue, database: fromDbValue });
    }
    if (fromApi?.title !== want.title || fromDb?.title !== want.title) {
      titleMismatches++;
      wrong('title', `/api/videos/${v.id}`, `API "${fromApi?.title}", database "${fromDb?.title}", expected "${want.title}"`);
    }
  }
  return { rows, titleMismatches };
}

function printErrors(logFile: string): void {
  if (!failures.length) return;
  const grouped = new Map<string, { n: number; first: Failure }>();
  for (const f of failures) {
    const key = `${f.kind}|${f.status}|${f.body.slice(0, 120)}`;
    const g = grouped.get(key);
    if (g) g.n++;
    else grouped.set(key, { n: 1, first: f });
  }
  console.log(`\nErrors (${failureCount}; the API's log: ${logFile}):`);
  for (const { n, first: f } of [...grouped.values()].slice(0, 30)) {
    console.log(`  ${n} × [${f.phase} @ ${f.atSeconds} s] ${f.kind}: ${f.method} ${f.route} → ${f.status} ${f.body}`);
  }
}

async function removeRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
      if ((keys as string[]).length) await redis.unlink(...(keys as string[]));
    }
  } catch (error) {
    console.error(`Could not remove the run's Redis keys (${prefix}*): ${String(error)}`);
  } finally {
    redis.disconnect();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'soak-'));
  const out = RESULTS_DIR;
  mkdirSync(out, { recursive: true });
  const logFile = path.join(out, 'soak-api.log');
  writeFileSync(logFile, '');
  const redisPrefix = `soak-${tag}:`;
  const database = `${DATABASE_URL ? 'PostgreSQL server' : 'PGlite'}${REDIS_URL ? ' + Redis' : ''}`;
  const dbOptions = dataSourceOptions({ databaseUrl: DATABASE_URL ?? null, dataDir, inMemoryDatabase: false });
  let child: ChildProcess | null = null;
  try {
    console.log(`Soak on ${database}: seeding ${VIDEOS} videos…`);
    await seed(dbOptions);
    const clip = makeClip(dataDir);

    // The API, limits off (one address sends everything), with an admin; members registered through it.
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    const admin = { email: `soak-admin-${tag}@example.com`, password: 'soak-admin-password' };
    const server = await startApi({
      NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_SEED: 'false', HOST: '127.0.0.1',
      RATE_LIMIT_WRITE: '0', RATE_LIMIT_AUTH: '0', RATE_LIMIT_READ: '0', TRUST_PROXY: 'loopback', PUBLIC_URL: api,
      JWT_SECRET: 'soak-secret-soak-secret-soak-secret', MEDIA_SIGNING_KEY: 'soak-signing-key-0000',
      ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, REDIS_PREFIX: redisPrefix,
      ...(DATABASE_URL ? { DATABASE_URL } : {}), ...(REDIS_URL ? { REDIS_URL } : {}),
    }, port, logFile);
    child = server;
    const login = await call<{ accessToken: string }>('POST /api/auth/login (admin)', 'POST', '/api/auth/login', { body: admin });
    if (!login.ok) throw new Error('The admin could not sign in');
    adminToken = login.json.accessToken;
    await readPool();
    await setupMembers();

    console.log(`Phase 1: capacity of the mix (${CAPACITY_SECONDS} s, ${CONNECTIONS} at a time)…`);
    const capacity = await measureCapacity();
    const rate = RATE ?? Math.max(1, Math.round(capacity['req/s'] / 2));
    await sleep(2000);
    console.log(`Phase 2: the mix at ${rate} req/s for ${SECONDS} s…`);
    const soak = await soakPhase(server, rate, clip);

    // Checks: flush, every touched video and every member's lists through the API; the database after shutdown.
    recorder = new Recorder('check');
    await call('POST /api/admin/refresh-views', 'POST', '/api/admin/refresh-views', { token: adminToken, body: {} });
    const apiVideos = new Map<number, VideoJson>();
    await inBatches(pool, 8, async (v) => {
      const res = await call<VideoJson>('GET /api/videos/{id} (check)', 'GET', `/api/videos/${v.id}`);
      if (res.ok) apiVideos.set(v.id, res.json);
    });
    const listMismatches = await checkMembers();
    await stopApi(server);
    child = null;
    const db = await openDataSource(dbOptions);
    const dbVideos = await readCountsFromDb(db, pool.map((v) => v.id));
    await db.destroy();
    const counts = compareCounts(apiVideos, dbVideos);
    const totals = { views: 0, likes: 0, trending: 0 };
    for (const c of counted.values()) {
      totals.views += c.views;
      totals.likes += c.likes;
      totals.trending += c.trending;
    }

    // The report.
    const start = soak.memory[0];
    const end = soak.memory.find((s) => s.label === 'end') ?? start;
    const heapRatio = round(end.heapUsedAfterGcMb / start.heapUsedAfterGcMb, 3);
    const reasons: string[] = [];
    if (failureCount) reasons.push(`${failureCount} errors`);
    if (counts.rows.length) reasons.push(`${counts.rows.length} count mismatches`);
    if (listMismatches || counts.titleMismatches) reasons.push(`${listMismatches} list and ${counts.titleMismatches} title mismatches`);
    if (heapRatio > HEAP_GROWTH_LIMIT) reasons.push(`heap grew ${heapRatio}x (rule: at most ${HEAP_GROWTH_LIMIT}x)`);
    if (soak.upload?.state !== 'done') reasons.push(`upload ${soak.upload?.state ?? 'not started'}`);
    const verdict = reasons.length
      ? `FAIL: ${reasons.join('; ')}`
      : `PASS: 0 errors, counts exact on ${counted.size} videos, heap after GC ${start.heapUsedAfterGcMb} → ${end.heapUsedAfterGcMb} MB ` +
        `(${heapRatio}x, rule ≤ ${HEAP_GROWTH_LIMIT}x)`;

    console.log(`\nSoak on ${database}: ${VIDEOS} videos, ${MEMBERS} members, writes to ${pool.length} videos.`);
    console.log('\nPhase 1, capacity of the mix:');
    console.table([capacity]);
    console.log(`\nPhase 2, the mix at ${rate} req/s (${RATE ? 'SOAK_RATE' : `half of ${capacity['req/s']}`}) for ${round(soak.seconds)} s: ` +
      `${soak.schedule.started} operations started, ${soak.schedule.skipped} slots skipped (${MAX_IN_FLIGHT} requests in flight); ` +
      `CPU: the API ${soak.cpu.apiPercent} %, this client ${soak.cpu.clientPercent} % (of one core; the machine has ${availableParallelism()}).`);
    console.table(soak.rows);
    console.log(`\nOver time (${SAMPLE_SECONDS} s windows):`);
    console.table(soak.windows);
    console.log(`\nUpload: ${soak.upload ? `${soak.upload.state} in ${soak.upload.seconds} s (video ${soak.upload.videoId})` : 'not started'}.`);
    console.log(`\nCounts: ${totals.views} views, ${totals.likes} likes and ${totals.trending} trending signals acknowledged on ${counted.size} videos, ` +
      `${edits} title edits. Mismatches (API after refresh-views, database after shutdown): ${counts.rows.length} counts, ` +
      `${listMismatches} members' lists, ${counts.titleMismatches} titles.`);
    if (counts.rows.length) console.table(counts.rows.slice(0, 30));
    console.log(`\nMemory of the API process (flat: heap used after a forced GC at the end ≤ ${HEAP_GROWTH_LIMIT}x the start's):`);
    console.table(soak.memory.map((s) => ({
      sample: s.label, 'at s': s.atSeconds, 'RSS MB': s.rssMb, 'heap used MB': s.heapUsedMb, 'heap total MB': s.heapTotalMb,
      'heap after GC MB': s.heapUsedAfterGcMb, 'external MB': s.externalMb,
    })));
    printErrors(logFile);
    console.log(`\n${verdict}`);

    writeFileSync(path.join(out, 'soak-latest.json'), JSON.stringify({
      when: new Date().toISOString(), database, videos: VIDEOS, members: MEMBERS, poolVideos: pool.length, seconds: round(soak.seconds),
      capacity, targetRate: rate, schedule: soak.schedule, cpu: soak.cpu, soak: soak.rows, windows: soak.windows, upload: soak.upload,
      counts: { acknowledged: totals, videos: counted.size, edits, mismatches: counts.rows, listMismatches, titleMismatches: counts.titleMismatches },
      memory: { rule: `heap used after GC at the end ≤ ${HEAP_GROWTH_LIMIT}x the start's`, heapRatio, samples: soak.memory, timeline: soak.timeline },
      errorCount: failureCount, errors: failures.slice(0, 200), verdict,
    }, null, 2));
    if (reasons.length) process.exitCode = 1;
  } finally {
    if (child) await stopApi(child);
    // The run's keys (dedupe marks, caches) go with it.
    if (REDIS_URL) await removeRedisKeys(REDIS_URL, redisPrefix);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
