import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { slugify } from '@hunktube/shared';
import request, { type Response } from 'supertest';
import { AdEventsService } from '../src/ads/ad-events.service';
import { ffmpegPath } from '../src/media/ffmpeg.runner';
import { guestFrom, insertVideo } from './helpers/factories';
import { bearer, createTestApp, onPostgresServer, registerAdmin, registerUser, type TestApp, type TestUser } from './helpers/test-app';

/**
 * Freshness: every write route of the OpenAPI document, followed by the reads that must show what it wrote, on
 * the very next request, in the process that wrote and (on the PostgreSQL server with Redis, as CI runs it) in
 * a second API process on the same database and Redis, within the second the bus takes. Each read is made
 * before the write too, so that every cache on the way (the catalogue cache, the search index, the hot answers,
 * the outage answers) holds the old state, and must show something else then: a read that already showed the
 * new state proves nothing and fails the test. A write route added to the API without a scenario here fails the
 * first test. The caches are all on, and the search index answers at any size.
 */
const second = onPostgresServer() && !!process.env.TEST_REDIS_URL;
/** A word no other scenario's fixtures hold. */
const uniqueWord = () => `Fresh${randomBytes(4).toString('hex')}`;

type Who = 'guest' | 'member' | 'admin' | TestUser;
interface Read {
  url: string;
  as?: Who;
  /** Passes on the state the write makes; must fail on the state before it. */
  shows(res: Response): void;
}
interface Scenario<C> {
  /** A read sent as POST: its reads show the same state before and after it. */
  readOnly?: boolean;
  /** Fixtures, written before the reads are made the first time. */
  arrange(): Promise<C>;
  reads(c: C): Read[];
  write(c: C): Promise<unknown>;
}

/** A scenario, its context's type inferred from what `arrange` answers. */
const scenario = <C>(s: Scenario<C>): Scenario<C> => s;

const idsOf = (res: Response): unknown[] => (res.body.data as { id?: unknown; playlist_id?: unknown }[]).map((x) => x.id ?? x.playlist_id);

describe(`Freshness: every write shows on the next read, ${second ? 'in this process and in a second one on the same database and Redis' : 'in this process'} (e2e)`, () => {
  let a: TestApp;
  let b: TestApp | undefined;
  let admin: TestUser;
  let member: TestUser;
  let dir: string;
  let clip: string;

  const env = (): Record<string, string> => ({
    TRUST_PROXY: 'loopback',
    SEARCH_INDEX_MIN_VIDEOS: '0',
    INGEST_WORKER: 'false',
    COUNTER_FLUSH_MS: '3600000',
    JWT_SECRET: 'freshness-test-secret-0123456789abcdef',
    MEDIA_SIGNING_KEY: 'freshness-test-media-key-0123456789abcdef',
    MEDIA_DIR: path.join(dir, 'media'),
    ...(second ? { REDIS_URL: process.env.TEST_REDIS_URL as string, REDIS_PREFIX: `fresh-${randomUUID().slice(0, 8)}:` } : {}),
  });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'freshness-'));
    clip = path.join(dir, 'clip.mp4');
    execFileSync(ffmpegPath(), [
      '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=15:duration=1',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip,
    ]);
    const shared = env();
    a = await createTestApp(shared);
    // The second process: the same database (and media folder, as the stack's nginx and API share the bucket).
    if (second) b = await createTestApp({ ...shared, DATABASE_URL: a.config.databaseUrl as string });
    admin = await registerAdmin(a);
    member = await registerUser(a.http);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (t: TestApp, method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, who: Who = 'guest') => {
    const req = request(t.http)[method](url);
    if (who === 'guest') return req.set(guestFrom(`fresh-reader-${randomUUID()}`));
    return req.set(bearer(who === 'member' ? member : who === 'admin' ? admin : who));
  };
  const write = (method: 'post' | 'put' | 'patch' | 'delete', url: string, who: Who = 'member') => send(a, method, url, who);
  /** A published video written behind the API's back, announced as its owner would. */
  const video = async (fields: Parameters<typeof insertVideo>[1] = {}) => {
    const id = await insertVideo(a.db, { title: `${uniqueWord()} Video`, ...fields });
    a.videosChanged([id]);
    return id;
  };
  const passes = (check: () => void): boolean => {
    try {
      check();
      return true;
    } catch {
      return false;
    }
  };
  /** The other process hears of a change within a second (pub/sub); the writer, at once. */
  async function expectShown(t: TestApp, read: Read, name: string, waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const res = await send(t, 'get', read.url, read.as);
      if (passes(() => read.shows(res)) || Date.now() > deadline) {
        try {
          read.shows(res);
        } catch (error) {
          throw new Error(`${name}: GET ${read.url} after the write: ${(error as Error).message}\n${res.status} ${res.text.slice(0, 400)}`, { cause: error });
        }
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const scenarios: Record<string, Scenario<unknown>> = {
    // --- accounts ----------------------------------------------------------------------------------------------
    'POST /api/auth/register': scenario({
      arrange: async () => ({
        email: `fresh.${randomBytes(4).toString('hex')}@example.com`,
        members: (await send(a, 'get', '/api/admin/dashboard', 'admin').expect(200)).body.totals.members as number,
      }),
      reads: (c) => [{ url: '/api/admin/dashboard', as: 'admin', shows: (res) => expect(res.body.totals.members).toBe(c.members + 1) }],
      write: async (c) => send(a, 'post', '/api/auth/register', 'guest').send({ email: c.email, password: 'correct horse battery', displayName: 'Fresh Member' }).expect(201),
    }),
    'POST /api/auth/login': scenario({
      arrange: async () => ({ user: await registerUser(a.http, { password: 'correct horse battery' }), name: `Signed In ${uniqueWord()}` }),
      reads: (c) => [{ url: '/api/auth/me', as: c.user, shows: (res) => expect(res.body.user.user_metadata.display_name).toBe(c.name) }],
      write: async (c) => {
        // A login answers the account as it is now: renamed behind the API's back, then signed in.
        await a.db.query('UPDATE users SET display_name = $2 WHERE id = $1', [c.user.id, c.name]);
        const res = await send(a, 'post', '/api/auth/login', 'guest').send({ email: c.user.email, password: 'correct horse battery' }).expect(200);
        c.user.token = res.body.accessToken;
      },
    }),
    'POST /api/auth/logout': scenario({
      arrange: async () => ({ user: await registerUser(a.http) }),
      reads: (c) => [{ url: '/api/auth/me', as: c.user, shows: (res) => expect(res.status).toBe(401) }],
      write: async (c) => write('post', '/api/auth/logout', c.user).expect(204),
    }),
    'PATCH /api/auth/me': scenario({
      arrange: async () => ({ user: await registerUser(a.http), name: `Renamed ${uniqueWord()}` }),
      reads: (c) => [{ url: '/api/auth/me', as: c.user, shows: (res) => expect(JSON.stringify(res.body.user)).toContain(c.name) }],
      write: async (c) => write('patch', '/api/auth/me', c.user).send({ displayName: c.name }).expect(200),
    }),
    'DELETE /api/me/account': scenario({
      arrange: async () => ({ user: await registerUser(a.http, { password: 'correct horse battery' }) }),
      reads: (c) => [{ url: '/api/auth/me', as: c.user, shows: (res) => expect(res.status).toBe(401) }],
      write: async (c) => write('delete', '/api/me/account', c.user).send({ password: 'correct horse battery' }).expect(204),
    }),

    // --- counts ------------------------------------------------------------------------------------------------
    'POST /api/video/increment-views': scenario({
      arrange: async () => ({ id: await video({ views: 7, categories: [`Views ${uniqueWord()}`] }) }),
      reads: (c) => [
        { url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.views).toBe(8) },
        { url: '/api/videos?sort=newest&limit=60', shows: (res) => expect(res.body.data.find((v: { id: number }) => v.id === c.id)?.views).toBe(8) },
      ],
      write: async (c) => send(a, 'post', '/api/video/increment-views').send({ videoId: c.id }).expect(200),
    }),
    'POST /api/video/add-trending': scenario({
      // A trending signal moves the ranking at the counters' next flush, by design (docs/decisions.md): flushed here.
      arrange: async () => {
        const category = `Trending ${uniqueWord()}`;
        const first = await video({ categories: [category], views: 5 });
        const rising = await video({ categories: [category] });
        // Ahead on a score from the last recompute; with no signal since, the next recompute takes it to 0.
        await a.db.query('UPDATE videos SET trending_score = 1 WHERE id = $1', [first]);
        a.videosChanged([first]);
        return { rising, first, category: slugify(category) };
      },
      reads: (c) => [{ url: `/api/videos?category=${c.category}&sort=trending`, shows: (res) => expect(idsOf(res)[0]).toBe(c.rising) }],
      write: async (c) => {
        await send(a, 'post', '/api/video/add-trending').send({ videoId: c.rising }).expect(204);
        await write('post', '/api/admin/refresh-views', 'admin').send({}).expect(200);
      },
    }),
    'POST /api/admin/refresh-views': scenario({
      arrange: async () => {
        const category = `Counted ${uniqueWord()}`;
        const leader = await video({ categories: [category], views: 1 });
        const viewed = await video({ categories: [category], views: 0 });
        for (let i = 0; i < 3; i++) await send(a, 'post', '/api/video/increment-views').send({ videoId: viewed }).expect(200);
        return { viewed, leader, category: slugify(category) };
      },
      // The buffered views count in every card at once; the order by stored views moves at the flush.
      reads: (c) => [{ url: `/api/videos?category=${c.category}&sort=most-viewed`, shows: (res) => expect(idsOf(res)).toEqual([c.viewed, c.leader]) }],
      write: async () => write('post', '/api/admin/refresh-views', 'admin').send({}).expect(200),
    }),
    'POST /api/video/increment-likes': scenario({
      arrange: async () => ({ id: await video({ likes: 2 }) }),
      reads: (c) => [
        { url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.likes).toBe(3) },
        { url: '/api/me/likes', as: 'member', shows: (res) => expect(idsOf(res)).toContain(c.id) },
      ],
      write: async (c) => write('post', '/api/video/increment-likes').send({ videoId: c.id }).expect(200),
    }),
    'POST /api/video/remove-like': scenario({
      arrange: async () => {
        const id = await video({ likes: 2 });
        await write('post', '/api/video/increment-likes').send({ videoId: id }).expect(200);
        return { id };
      },
      reads: (c) => [
        { url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.likes).toBe(2) },
        { url: '/api/me/likes', as: 'member', shows: (res) => expect(idsOf(res)).not.toContain(c.id) },
      ],
      write: async (c) => write('post', '/api/video/remove-like').send({ videoId: c.id }).expect(200),
    }),
    'POST /api/video/update-duration': scenario({
      arrange: async () => ({ id: await video({ duration: null }) }),
      reads: (c) => [
        { url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.duration).toBe(4321) },
        { url: '/api/videos?sort=longest&limit=1', shows: (res) => expect(idsOf(res)).toEqual([c.id]) },
      ],
      write: async (c) => send(a, 'post', '/api/video/update-duration').send({ videoId: c.id, videoDuration: 4321.5 }).expect(200),
    }),

    // --- a member's lists --------------------------------------------------------------------------------------
    'POST /api/video/add-history': scenario({
      arrange: async () => ({ id: await video() }),
      reads: (c) => [{ url: '/api/me/history', as: 'member', shows: (res) => expect(idsOf(res)[0]).toBe(c.id) }],
      write: async (c) => write('post', '/api/video/add-history').send({ videoId: c.id }).expect(204),
    }),
    'POST /api/video/add-to-bookmarks': scenario({
      arrange: async () => ({ id: await video() }),
      reads: (c) => [{ url: '/api/me/bookmarks', as: 'member', shows: (res) => expect(idsOf(res)).toContain(c.id) }],
      write: async (c) => write('post', '/api/video/add-to-bookmarks').send({ videoId: c.id, action: 'create' }).expect(200),
    }),
    'POST /api/video/get-bookmarks': scenario({
      // A read sent as POST (the contract's): it answers the bookmarks as they are and changes nothing.
      readOnly: true,
      arrange: async () => {
        const id = await video();
        await write('post', '/api/video/add-to-bookmarks').send({ videoId: id, action: 'create' }).expect(200);
        return { id };
      },
      reads: (c) => [{ url: '/api/me/bookmarks', as: 'member', shows: (res) => expect(idsOf(res)).toContain(c.id) }],
      write: async (c) => {
        const res = await write('post', '/api/video/get-bookmarks').send({}).expect(200);
        expect(JSON.stringify(res.body.bookmarks)).toContain(String(c.id));
      },
    }),
    'POST /api/video/add-to-watch-later': scenario({
      arrange: async () => ({ id: await video() }),
      reads: (c) => [{ url: '/api/me/watch-later', as: 'member', shows: (res) => expect(idsOf(res)).toContain(c.id) }],
      write: async (c) => write('post', '/api/video/add-to-watch-later').send({ videoId: c.id, action: 'create' }).expect(200),
    }),
    'PUT /api/me/following/{performerId}': scenario({
      arrange: async () => {
        const name = `Performer ${uniqueWord()}`;
        const id = await video({ performers: [name] });
        return { id, performer: slugify(name) };
      },
      reads: (c) => [
        { url: '/api/me/following', as: 'member', shows: (res) => expect(idsOf(res)).toContain(c.performer) },
        { url: '/api/me/followed-videos', as: 'member', shows: (res) => expect(idsOf(res)).toContain(c.id) },
      ],
      write: async (c) => write('put', `/api/me/following/${c.performer}`).send({}).expect(200),
    }),
    'DELETE /api/me/following/{performerId}': scenario({
      arrange: async () => {
        const name = `Performer ${uniqueWord()}`;
        const id = await video({ performers: [name] });
        const performer = slugify(name);
        await write('put', `/api/me/following/${performer}`).send({}).expect(200);
        return { id, performer };
      },
      reads: (c) => [
        { url: '/api/me/following', as: 'member', shows: (res) => expect(idsOf(res)).not.toContain(c.performer) },
        { url: '/api/me/followed-videos', as: 'member', shows: (res) => expect(idsOf(res)).not.toContain(c.id) },
      ],
      write: async (c) => write('delete', `/api/me/following/${c.performer}`).expect(200),
    }),
    'PUT /api/me/history/{videoId}/position': scenario({
      arrange: async () => ({ id: await video({ duration: 600 }) }),
      reads: (c) => [{ url: '/api/me/continue-watching', as: 'member', shows: (res) => expect(idsOf(res)).toContain(c.id) }],
      write: async (c) => write('put', `/api/me/history/${c.id}/position`).send({ position: 120 }).expect(200),
    }),
    'DELETE /api/me/continue-watching/{videoId}': scenario({
      arrange: async () => {
        const id = await video({ duration: 600 });
        await write('put', `/api/me/history/${id}/position`).send({ position: 120 }).expect(200);
        return { id };
      },
      reads: (c) => [{ url: '/api/me/continue-watching', as: 'member', shows: (res) => expect(idsOf(res)).not.toContain(c.id) }],
      write: async (c) => write('delete', `/api/me/continue-watching/${c.id}`).expect(204),
    }),
    'DELETE /api/me/history': scenario({
      arrange: async () => {
        const user = await registerUser(a.http);
        await write('post', '/api/video/add-history', user).send({ videoId: await video() }).expect(204);
        return { user };
      },
      reads: (c) => [{ url: '/api/me/history', as: c.user, shows: (res) => expect(res.body.total).toBe(0) }],
      write: async (c) => write('delete', '/api/me/history', c.user).expect(204),
    }),
    'PUT /api/me/hidden': scenario({
      arrange: async () => {
        const [category, tag, performer] = [`Hidden ${uniqueWord()}`, `Hidden ${uniqueWord()}`, `Shared ${uniqueWord()}`];
        const byCategory = await video({ categories: [category], performers: [performer] });
        const byTag = await video({ tags: [tag] });
        // Related to the hidden one by their performer.
        const other = await video({ performers: [performer] });
        return { user: await registerUser(a.http), category: slugify(category), tag: slugify(tag), byCategory, byTag, other };
      },
      reads: (c) => [
        { url: '/api/me/hidden', as: c.user, shows: (res) => expect(res.body).toEqual({ categories: [c.category], performers: [], tags: [c.tag] }) },
        { url: '/api/videos?sort=newest&limit=60', as: c.user, shows: (res) => expect(idsOf(res)).not.toContain(c.byCategory) },
        { url: '/api/videos?sort=newest&limit=60', as: c.user, shows: (res) => expect(idsOf(res)).not.toContain(c.byTag) },
        { url: `/api/videos/${c.other}/related`, as: c.user, shows: (res) => expect(idsOf(res)).not.toContain(c.byCategory) },
      ],
      write: async (c) => write('put', '/api/me/hidden', c.user).send({ categories: [c.category], performers: [], tags: [c.tag] }).expect(200),
    }),
    'PUT /api/me/history/paused': scenario({
      arrange: async () => ({ user: await registerUser(a.http) }),
      reads: (c) => [
        { url: '/api/me/history/paused', as: c.user, shows: (res) => expect(res.body.paused).toBe(true) },
        { url: '/api/me/continue-watching', as: c.user, shows: (res) => expect(res.body.paused).toBe(true) },
      ],
      write: async (c) => write('put', '/api/me/history/paused', c.user).send({ paused: true }).expect(200),
    }),

    // --- playlists ---------------------------------------------------------------------------------------------
    'POST /api/playlists/create-playlist': scenario({
      arrange: async () => ({ id: await video(), title: `List ${uniqueWord()}` }),
      reads: (c) => [{ url: '/api/playlists/get-user-playlists', as: 'member', shows: (res) => expect(JSON.stringify(res.body.data)).toContain(c.title) }],
      write: async (c) => write('post', '/api/playlists/create-playlist').send({ video_id: c.id, title: c.title }).expect(201),
    }),
    'POST /api/playlists/add-to-playlist': scenario({
      arrange: async () => ({ ...(await playlist()), added: await video() }),
      reads: (c) => [{ url: `/api/playlists/${c.playlist}`, as: 'member', shows: (res) => expect(idsOf(res)).toContain(c.added) }],
      write: async (c) => write('post', '/api/playlists/add-to-playlist').send({ video_id: c.added, playlist_id: c.playlist }).expect(200),
    }),
    'PATCH /api/playlists/{id}': scenario({
      arrange: async () => ({ ...(await playlist()), title: `Renamed ${uniqueWord()}` }),
      reads: (c) => [
        { url: `/api/playlists/${c.playlist}`, as: 'member', shows: (res) => expect(res.body.playlist.title).toBe(c.title) },
        { url: '/api/playlists/get-user-playlists', as: 'member', shows: (res) => expect(JSON.stringify(res.body.data)).toContain(c.title) },
      ],
      write: async (c) => write('patch', `/api/playlists/${c.playlist}`).send({ title: c.title }).expect(200),
    }),
    'DELETE /api/playlists/{id}': scenario({
      arrange: playlist,
      reads: (c) => [{ url: `/api/playlists/${c.playlist}`, as: 'member', shows: (res) => expect(res.status).toBe(404) }],
      write: async (c) => write('delete', `/api/playlists/${c.playlist}`).expect(204),
    }),
    'DELETE /api/playlists/{id}/videos/{videoId}': scenario({
      arrange: playlist,
      reads: (c) => [{ url: `/api/playlists/${c.playlist}`, as: 'member', shows: (res) => expect(idsOf(res)).toEqual([c.others[1]]) }],
      write: async (c) => write('delete', `/api/playlists/${c.playlist}/videos/${c.others[0]}`).expect(204),
    }),
    'PUT /api/playlists/{id}/order': scenario({
      arrange: playlist,
      reads: (c) => [{ url: `/api/playlists/${c.playlist}`, as: 'member', shows: (res) => expect(idsOf(res)).toEqual([c.others[1], c.others[0]]) }],
      write: async (c) => write('put', `/api/playlists/${c.playlist}/order`).send({ video_ids: [c.others[1], c.others[0]] }).expect(204),
    }),

    // --- taxonomy ----------------------------------------------------------------------------------------------
    'POST /api/categories': scenario({
      arrange: async () => ({ name: `Category ${uniqueWord()}` }),
      reads: (c) => [{ url: '/api/categories', shows: (res) => expect(JSON.stringify(res.body.data)).toContain(c.name) }],
      write: async (c) => write('post', '/api/categories', 'admin').send({ name: c.name }).expect(201),
    }),
    'POST /api/performers': scenario({
      arrange: async () => ({ name: `Performer ${uniqueWord()}` }),
      reads: (c) => [{ url: '/api/performers', shows: (res) => expect(JSON.stringify(res.body.data)).toContain(c.name) }],
      write: async (c) => write('post', '/api/performers', 'admin').send({ name: c.name }).expect(201),
    }),
    'PATCH /api/admin/categories/{id}': renameTaxon('categories'),
    'PATCH /api/admin/performers/{id}': renameTaxon('performers'),
    'PATCH /api/admin/tags/{id}': renameTaxon('tags'),
    // --- ad zones (docs/ads.md) ---------------------------------------------------------------------------------
    'POST /api/admin/ad-zones': scenario({
      arrange: async () => ({ name: `Zone ${uniqueWord()}` }),
      reads: (c) => [
        { url: '/api/admin/ad-zones', as: 'admin', shows: (res) => expect(JSON.stringify(res.body.data)).toContain(c.name) },
        { url: '/api/ads?placement=banner-footer', shows: (res) => expect(JSON.stringify(res.body.data)).toContain(c.name) },
        { url: '/api/admin/ad-stats?days=7', as: 'admin', shows: (res) => expect(JSON.stringify(res.body.zones)).toContain(c.name) },
      ],
      write: async (c) =>
        write('post', '/api/admin/ad-zones', 'admin').send({ name: c.name, placement: 'banner-footer', kind: 'html', html: `<b>${c.name}</b>`, brands: ['default'] }).expect(201),
    }),
    'PATCH /api/admin/ad-zones/{id}': scenario({
      arrange: async () => {
        const html = `<b>${uniqueWord()}</b>`;
        const zone = await write('post', '/api/admin/ad-zones', 'admin').send({ name: 'Patched', placement: 'banner-watch', kind: 'html', html, brands: ['default'] }).expect(201);
        return { id: zone.body.id as number, html };
      },
      reads: (c) => [
        { url: '/api/admin/ad-zones', as: 'admin', shows: (res) => expect(res.body.data.find((z: { id: number }) => z.id === c.id)?.active).toBe(false) },
        { url: '/api/ads?placement=banner-watch', shows: (res) => expect(JSON.stringify(res.body.data)).not.toContain(c.html) },
      ],
      write: async (c) => write('patch', `/api/admin/ad-zones/${c.id}`, 'admin').send({ active: false }).expect(200),
    }),
    'DELETE /api/admin/ad-zones/{id}': scenario({
      arrange: async () => {
        const vastUrl = `https://${uniqueWord().toLowerCase()}.ads.example/vast`;
        const zone = await write('post', '/api/admin/ad-zones', 'admin').send({ name: 'Removed', placement: 'postroll', kind: 'vast', vastUrl, brands: ['default'] }).expect(201);
        return { id: zone.body.id as number, vastUrl };
      },
      reads: (c) => [
        { url: '/api/admin/ad-zones', as: 'admin', shows: (res) => expect(idsOf(res)).not.toContain(c.id) },
        { url: '/api/ads?placement=postroll', shows: (res) => expect(idsOf(res)).not.toContain(c.id) },
        { url: `/api/admin/ad-zones/${c.id}/stats`, as: 'admin', shows: (res) => expect(res.status).toBe(404) },
      ],
      write: async (c) => write('delete', `/api/admin/ad-zones/${c.id}`, 'admin').expect(204),
    }),
    'POST /api/ads/{id}/events': scenario({
      // Counted at once in this process's figures; written for every process at the next flush (flushed here).
      arrange: async () => {
        const zone = await write('post', '/api/admin/ad-zones', 'admin').send({ name: 'Counted', placement: 'preroll', kind: 'vast', vastUrl: 'https://ads.example/v', brands: ['default'] }).expect(201);
        return { id: zone.body.id as number };
      },
      reads: (c) => [{ url: `/api/admin/ad-zones/${c.id}/stats?days=7`, as: 'admin', shows: (res) => expect(res.body.totals.clicks).toBe(1) }],
      write: async (c) => {
        await send(a, 'post', `/api/ads/${c.id}/events`).send({ event: 'click' }).expect(204);
        await a.app.get(AdEventsService).flush();
      },
    }),
    'DELETE /api/admin/tags/{id}': scenario({
      arrange: async () => {
        const name = `Tag ${uniqueWord()}`;
        return { tag: slugify(name), id: await video({ tags: [name] }) };
      },
      reads: (c) => [
        { url: '/api/tags', shows: (res) => expect(JSON.stringify(res.body.data)).not.toContain(`"${c.tag}"`) },
        { url: `/api/tags/${c.tag}`, shows: (res) => expect(res.status).toBe(404) },
        { url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.tags).toEqual([]) },
        { url: `/api/videos?tag=${c.tag}`, shows: (res) => expect(res.body.total).toBe(0) },
      ],
      write: async (c) => write('delete', `/api/admin/tags/${c.tag}`, 'admin').expect(204),
    }),
    'POST /api/admin/tag-synonyms': scenario({
      arrange: async () => {
        const [into, alias] = [`Tag ${uniqueWord()}`, `Tag ${uniqueWord()}`];
        await video({ tags: [into] });
        return { into: slugify(into), alias: slugify(alias), id: await video({ tags: [alias] }) };
      },
      reads: (c) => [
        { url: '/api/tags', shows: (res) => expect(JSON.stringify(res.body.data)).not.toContain(`"${c.alias}"`) },
        { url: `/api/tags/${c.alias}`, shows: (res) => expect(res.body).toMatchObject({ id: c.into, video_count: 2 }) },
        { url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.tags.map((x: { id: string }) => x.id)).toEqual([c.into]) },
        { url: `/api/videos?tag=${c.into}`, shows: (res) => expect(res.body.total).toBe(2) },
        { url: `/api/videos?tag=${c.alias}`, shows: (res) => expect(res.body.total).toBe(2) },
      ],
      write: async (c) => write('post', '/api/admin/tag-synonyms', 'admin').send({ alias: c.alias, tag: c.into }).expect(201),
    }),
    'DELETE /api/admin/tag-synonyms/{alias}': scenario({
      arrange: async () => {
        const [into, alias] = [`Tag ${uniqueWord()}`, `Tag ${uniqueWord()}`];
        await video({ tags: [into] });
        await write('post', '/api/admin/tag-synonyms', 'admin').send({ alias, tag: slugify(into) }).expect(201);
        return { alias: slugify(alias) };
      },
      reads: (c) => [{ url: `/api/tags/${c.alias}`, shows: (res) => expect(res.status).toBe(404) }],
      write: async (c) => write('delete', `/api/admin/tag-synonyms/${c.alias}`, 'admin').expect(204),
    }),

    // --- the catalogue's admin ---------------------------------------------------------------------------------
    'POST /api/admin/videos': scenario({
      arrange: async () => ({ title: `Upload ${uniqueWord()}`, uploaded: 0 }),
      // Unpublished until the worker built it (no worker here): its job is listed, the video is not.
      reads: (c) => [{ url: '/api/admin/jobs', as: 'admin', shows: (res) => expect(res.body.data[0]?.video_id).toBe(c.uploaded) }],
      write: async (c) => {
        const res = await request(a.http).post('/api/admin/videos').set(bearer(admin)).field('title', c.title).attach('file', clip).expect(202);
        c.uploaded = res.body.id;
        await send(a, 'get', `/api/videos/${c.uploaded}`).expect(404);
      },
    }),
    'POST /api/admin/jobs/{id}/retry': scenario({
      arrange: async () => {
        const id = await insertVideo(a.db, { status: 'failed' });
        const [job] = await a.db.query(
          `INSERT INTO ingest_jobs (video_id, kind, state, progress, error, attempts, finished_at) VALUES ($1, 'ingest', 'failed', 30, 'ffmpeg exited with 1', 3, now()) RETURNING id`,
          [id],
        );
        return { job: Number(job.id) };
      },
      reads: (c) => [{ url: `/api/admin/jobs/${c.job}`, as: 'admin', shows: (res) => expect(res.body.data).toMatchObject({ state: 'queued', error: null }) }],
      write: async (c) => write('post', `/api/admin/jobs/${c.job}/retry`, 'admin').send({}).expect(202),
    }),
    'POST /api/admin/update-video': scenario({
      arrange: async () => {
        const category = `Edited ${uniqueWord()}`;
        const id = await video({ categories: [category] });
        const other = await video({ categories: [category] });
        return { id, other, word: uniqueWord() };
      },
      reads: (c) => [
        { url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.title).toBe(`${c.word} Edited`) },
        { url: '/api/videos?sort=newest&limit=60', shows: (res) => expect(res.body.data.find((v: { id: number }) => v.id === c.id)?.title).toBe(`${c.word} Edited`) },
        { url: `/api/videos?q=${c.word}`, shows: (res) => expect(idsOf(res)).toEqual([c.id]) },
        { url: `/api/videos/${c.other}/related`, shows: (res) => expect(res.body.data.find((v: { id: number }) => v.id === c.id)?.title).toBe(`${c.word} Edited`) },
        { url: '/api/cards?ids=' + c.id, shows: (res) => expect(JSON.stringify(res.body)).toContain(`${c.word} Edited`) },
        // A tag the edit created is listed at once (the edit's VideoChanged is all it takes).
        { url: '/api/tags', shows: (res) => expect(JSON.stringify(res.body.data)).toContain(`"${c.word.toLowerCase()} tag"`) },
        { url: `/api/tags/${c.word.toLowerCase()}-tag`, shows: (res) => expect(res.status).toBe(200) },
      ],
      write: async (c) =>
        write('post', '/api/admin/update-video', 'admin').send({ id: c.id, title: `${c.word} Edited`, tags: [`${c.word.toLowerCase()} tag`] }).expect(200),
    }),
    'POST /api/admin/delete-video': scenario({
      arrange: async () => {
        const word = uniqueWord();
        return { id: await video({ title: `${word} Doomed` }), word };
      },
      reads: (c) => [
        { url: `/api/videos/${c.id}`, shows: (res) => expect(res.status).toBe(404) },
        { url: '/api/videos?sort=newest&limit=60', shows: (res) => expect(idsOf(res)).not.toContain(c.id) },
        { url: `/api/videos?q=${c.word}`, shows: (res) => expect(res.body.total).toBe(0) },
      ],
      write: async (c) => write('post', '/api/admin/delete-video', 'admin').send({ id: c.id }).expect(200),
    }),
    'POST /api/admin/update-thumbnail': scenario({
      arrange: async () => ({ file: `/thumbs/fresh/${randomBytes(4).toString('hex')}/poster.jpg`, bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]) }),
      reads: (c) => [{ url: c.file, shows: (res) => expect(Buffer.compare(res.body as Buffer, c.bytes)).toBe(0) }],
      write: async (c) =>
        request(a.http).post('/api/admin/update-thumbnail').set(bearer(admin)).attach('file', c.bytes, { filename: 'poster.jpg', contentType: 'image/jpeg' })
          .field('uploadPath', c.file).expect(200),
    }),
    'POST /api/admin/videos/{id}/captions': scenario({
      arrange: async () => ({ id: await video() }),
      reads: (c) => [{ url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.captions.map((x: { lang: string }) => x.lang)).toEqual(['en']) }],
      write: async (c) =>
        request(a.http).post(`/api/admin/videos/${c.id}/captions`).set(bearer(admin)).field('lang', 'en')
          .attach('file', Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nFresh\n'), { filename: 'en.vtt', contentType: 'text/vtt' }).expect(201),
    }),
    'DELETE /api/admin/videos/{id}/captions/{lang}': scenario({
      arrange: async () => {
        const id = await video();
        await request(a.http).post(`/api/admin/videos/${id}/captions`).set(bearer(admin)).field('lang', 'de')
          .attach('file', Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nFrisch\n'), { filename: 'de.vtt', contentType: 'text/vtt' }).expect(201);
        return { id };
      },
      reads: (c) => [{ url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.captions).toEqual([]) }],
      write: async (c) => write('delete', `/api/admin/videos/${c.id}/captions/de`, 'admin').expect(204),
    }),
    'POST /api/admin/clear-cache': scenario({
      arrange: async () => ({ id: await video(), title: `${uniqueWord()} Behind` }),
      reads: (c) => [{ url: `/api/videos/${c.id}`, shows: (res) => expect(res.body.title).toBe(c.title) }],
      write: async (c) => {
        // Written behind the API's back (SQL by hand): not announced, so kept answers stay until the admin clears them.
        await a.db.query('UPDATE videos SET title = $2 WHERE id = $1', [c.id, c.title]);
        await write('post', '/api/admin/clear-cache', 'admin').send({}).expect(200);
      },
    }),

    // --- removal requests --------------------------------------------------------------------------------------
    'POST /api/removal-requests': scenario({
      arrange: async () => ({ id: await video(), open: (await send(a, 'get', '/api/admin/dashboard', 'admin').expect(200)).body.removals.open as number }),
      reads: (c) => [
        { url: '/api/admin/removal-requests?state=open', as: 'admin', shows: (res) => expect(JSON.stringify(res.body.data)).toContain(`"id":${c.id},`) },
        { url: '/api/admin/dashboard', as: 'admin', shows: (res) => expect(res.body.removals.open).toBe(c.open + 1) },
      ],
      write: async (c) =>
        send(a, 'post', '/api/removal-requests').send({ urls: [`/video/${c.id}`], reason: 'copyright', contact: 'owner@example.com', good_faith: true }).expect(201),
    }),
    'POST /api/admin/removal-requests/{id}/close': scenario({
      arrange: async () => {
        const id = await video();
        const res = await send(a, 'post', '/api/removal-requests').send({ urls: [`/video/${id}`], reason: 'other', details: 'a test', contact: 'x@example.com', good_faith: true }).expect(201);
        return { request: res.body.id };
      },
      reads: (c) => [{ url: '/api/admin/removal-requests?state=closed', as: 'admin', shows: (res) => expect(idsOf(res)).toContain(c.request) }],
      write: async (c) => write('post', `/api/admin/removal-requests/${c.request}/close`, 'admin').send({ state: 'resolved' }).expect(200),
    }),
  };

  /** A playlist of the member's with two videos. */
  async function playlist(): Promise<{ playlist: number; others: number[] }> {
    const first = await video();
    const then = await video();
    const created = await write('post', '/api/playlists/create-playlist').send({ video_id: first, title: `List ${uniqueWord()}` }).expect(201);
    const id = Number(created.body.data.playlist_id ?? created.body.data.id);
    await write('post', '/api/playlists/add-to-playlist').send({ video_id: then, playlist_id: id }).expect(200);
    return { playlist: id, others: [first, then] };
  }

  function renameTaxon(kind: 'categories' | 'performers' | 'tags'): Scenario<{ taxon: string; id: number; name: string }> {
    return {
      arrange: async () => {
        const name = `Taxon ${uniqueWord()}`;
        const id = await video({ [kind]: [name] });
        return { taxon: slugify(name), id, name: `Renamed ${uniqueWord()}` };
      },
      reads: (c) => [
        { url: `/api/${kind}`, shows: (res) => expect(JSON.stringify(res.body.data)).toContain(c.name) },
        { url: `/api/videos/${c.id}`, shows: (res) => expect(JSON.stringify(res.body[kind])).toContain(c.name) },
      ],
      write: async (c) => write('patch', `/api/admin/${kind}/${c.taxon}`, 'admin').send({ name: c.name }).expect(200),
    };
  }

  it('has a scenario for every write route of the OpenAPI document', async () => {
    const doc = (await request(a.http).get('/api/docs-json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(doc.paths).flatMap(([route, ops]) =>
      Object.keys(ops).filter((method) => method !== 'get').map((method) => `${method.toUpperCase()} ${route}`),
    );
    expect(Object.keys(scenarios).sort()).toEqual(writes.sort());
  });

  it.each(Object.keys(scenarios))('%s', async (route) => {
    const scenario = scenarios[route];
    const c = await scenario.arrange();
    const processes: [string, TestApp][] = [['this process', a], ...(b ? [['the second process', b] as [string, TestApp]] : [])];
    // Made before the write, so that every cache holds the old state; none may show the new one yet.
    for (const [name, t] of processes) {
      for (const read of scenario.reads(c)) {
        const res = await send(t, 'get', read.url, read.as);
        const shown = passes(() => read.shows(res));
        expect(shown, `${name}: GET ${read.url} ${scenario.readOnly ? 'did not show the state' : 'already showed the new state'} before the write`).toBe(!!scenario.readOnly);
      }
    }
    await scenario.write(c);
    for (const read of scenario.reads(c)) await expectShown(a, read, 'this process', 0);
    if (b) for (const read of scenario.reads(c)) await expectShown(b, read, 'the second process', 1000);
  });
});
