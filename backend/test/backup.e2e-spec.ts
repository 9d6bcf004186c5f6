import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { stemOf } from '../src/common/media-paths';
import { createServerDatabase, onPostgresServer } from './helpers/test-app';
import { MIGRATIONS } from '../src/database/migrations';
import { guestFrom } from './helpers/factories';
import { ensureServerBuilt } from './helpers/built-server';
import { freePort } from '../bench/free-port';

/** The schema a backup taken now records: the newest migration's name. */
const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1].name;

/**
 * `npm run backup` and `npm run restore` as an operator runs them, on the compiled commands and real server
 * processes: a backup taken while the site runs and serves, restored into a fresh data directory (and, on the
 * PostgreSQL server, a fresh database), serves the same catalogue, members, lists and counts, and the same media.
 */
const server = onPostgresServer();

describe(`Backups (e2e, real processes, ${server ? 'PostgreSQL server' : 'embedded PGlite'})`, () => {
  const backend = path.resolve(__dirname, '..');
  const cli = (name: 'backup' | 'restore') => path.join(backend, 'dist', 'database', 'backup', `${name}.cli.js`);
  const running = new Set<ChildProcess>();
  const drops: (() => Promise<void>)[] = [];
  let root: string;
  let site1: Record<string, string>;
  let site2: Record<string, string>;
  let site1Process: ChildProcess;
  let base1: string;
  let backupFolder: string;
  const ADMIN = { email: 'admin@example.com', password: 'keeper of the keys 1' };
  const MEMBER = { email: 'member@example.com', password: 'a restored account passphrase', displayName: 'Member' };
  let memberToken: string;
  let adminToken: string;
  let playlistId: number;
  let videoIds: number[];
  const poster = Buffer.from(`poster bytes ${Math.random()}`);
  let posterPath: string;

  /** A site's settings: its own DATA_DIR (media inside) and, on the server, its own database. */
  async function siteEnv(name: string): Promise<Record<string, string>> {
    const env: Record<string, string> = {
      NODE_ENV: 'development', DATA_DIR: path.join(root, name), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DEMO_SEED: 'false',
      ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_AUTH: '0', RATE_LIMIT_WRITE: '0',
      COUNTER_FLUSH_MS: '3600000', DATABASE_URL: '', REDIS_URL: '', MEDIA_DIR: '',
    };
    if (server) {
      const db = await createServerDatabase(process.env.TEST_DATABASE_URL as string);
      env.DATABASE_URL = db.databaseUrl;
      drops.push(db.dropDatabase);
    }
    return env;
  }

  async function start(env: Record<string, string>): Promise<{ proc: ChildProcess; base: string }> {
    const port = await freePort();
    const proc = spawn(process.execPath, [path.join(backend, 'dist', 'main.js')], {
      // TRUST_PROXY: the test tells guest viewers apart by X-Forwarded-For (a guest is their network).
      env: { ...process.env, ...env, PORT: String(port), TRUST_PROXY: 'loopback' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    running.add(proc);
    proc.once('exit', () => running.delete(proc));
    // Its own line saying it listens on that port: another test's server may have taken the free port meanwhile,
    // and would answer the health check (with other accounts) while this one exits.
    let printed = '';
    proc.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 240; i++) {
      if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}`);
      try {
        if (printed.includes(`is up on http://localhost:${port} `) && (await fetch(`${base}/api/health`)).ok) return { proc, base };
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the server did not start');
  }

  async function stop(proc: ChildProcess): Promise<void> {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    proc.kill('SIGTERM');
    await exited;
  }

  /** Runs `npm run backup` / `npm run restore`'s command with a site's settings. */
  function run(name: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [cli(name), ...args], { env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const login = async (base: string, who: { email: string; password: string }) =>
    (await request(base).post('/api/auth/login').send({ email: who.email, password: who.password }).expect(200)).body.accessToken as string;

  /** Everything a visitor and the member see: the catalogue with its counts, taxonomy, the member's lists. */
  async function siteState(base: string, token: string) {
    const get = async (url: string, withAuth = false) => (await request(base).get(url).set(withAuth ? auth(token) : {}).expect(200)).body;
    const catalogue = await get('/api/videos?limit=60');
    return {
      catalogue,
      details: await Promise.all(catalogue.data.map((v: { id: number }) => get(`/api/videos/${v.id}`))),
      categories: await get('/api/categories'),
      performers: await get('/api/performers'),
      me: await get('/api/auth/me', true),
      bookmarks: await get('/api/me/bookmarks', true),
      watchLater: await get('/api/me/watch-later', true),
      likes: await get('/api/me/likes', true),
      history: await get('/api/me/history', true),
      playlists: await get('/api/playlists/get-user-playlists', true),
      playlist: await get(`/api/playlists/${playlistId}`, true),
    };
  }
  let before: Awaited<ReturnType<typeof siteState>>;

  beforeAll(async () => {
    // The commands run compiled, as `npm run backup` runs them.
    ensureServerBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'bk-'));
    site1 = await siteEnv('site1');
    site2 = await siteEnv('site2');
    execFileSync(process.execPath, [path.join(backend, 'dist', 'database', 'seeds', 'seed-catalog.cli.js'), '--videos', '4'], {
      env: { ...process.env, ...site1 },
      stdio: 'inherit',
    });
    ({ proc: site1Process, base: base1 } = await start(site1));

    // A member with lists, likes, views and a playlist; some media files.
    adminToken = await login(base1, ADMIN);
    await request(base1).post('/api/auth/register').send(MEMBER).expect(201);
    memberToken = await login(base1, MEMBER);
    const cards = (await request(base1).get('/api/videos?limit=60').expect(200)).body.data as { id: number; url: string; views: number }[];
    videoIds = cards.map((c) => c.id);
    expect(videoIds).toHaveLength(4);
    const [v0, v1, v2] = videoIds;
    const member = auth(memberToken);
    await request(base1).post('/api/video/add-to-bookmarks').set(member).send({ videoId: v0, action: 'create' }).expect(200);
    await request(base1).post('/api/video/add-to-watch-later').set(member).send({ videoId: v1, action: 'create' }).expect(200);
    await request(base1).post('/api/video/add-history').set(member).send({ videoId: v2 }).expect(204);
    await request(base1).post('/api/video/increment-likes').set(member).send({ videoId: v0 }).expect(200);
    playlistId = (await request(base1).post('/api/playlists/create-playlist').set(member).send({ video_id: v1, title: 'Keepers' }).expect(201)).body.data.playlist_id;
    await request(base1).post('/api/playlists/add-to-playlist').set(member).send({ video_id: v2, playlist_id: playlistId }).expect(200);
    for (const viewer of ['a', 'b', 'c']) {
      await request(base1).post('/api/video/increment-views').set(guestFrom(`backup-viewer-${viewer}`)).send({ videoId: v0 }).expect(200);
    }
    // Buffered counts reach the database on a flush; a backup holds what the database holds.
    await request(base1).post('/api/admin/refresh-views').set(auth(adminToken)).send({}).expect(200);
    await request(base1).post('/api/admin/clear-cache').set(auth(adminToken)).send({}).expect(200);

    posterPath = `/thumbs/${stemOf(cards[0].url)}/poster.jpg`;
    const mediaDir = path.join(site1.DATA_DIR, 'media');
    mkdirSync(path.dirname(path.join(mediaDir, posterPath)), { recursive: true });
    writeFileSync(path.join(mediaDir, posterPath), poster);

    before = await siteState(base1, memberToken);
    expect(before.details.find((v: { id: number }) => v.id === v0).views).toBe(cards[0].views + 3);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([...running].map((p) => stop(p)));
    for (const drop of drops) await drop();
    if (root) rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('backs up the running site and restores it into a fresh data directory that serves the same catalogue, lists, counts and media', async () => {
    backupFolder = path.join(root, 'backups', 'first');
    const backup = await run('backup', ['--out', backupFolder], site1);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      server
        ? /Database: pg_dump of DATABASE_URL/
        : new RegExp(`Database: open in the running server \\(pid ${site1Process.pid}\\); asking it for a snapshot on .*pglite\\.sock`),
    );
    expect(backup.stdout).toContain(`Backup written to ${backupFolder}`);
    expect(readdirSync(backupFolder).sort()).toEqual([server ? 'database.dump' : 'database.tar.gz', 'manifest.json', 'media.tar']);
    expect(JSON.parse(readFileSync(path.join(backupFolder, 'manifest.json'), 'utf8'))).toMatchObject({
      format: 'hunktube-backup',
      mode: server ? 'server' : 'embedded',
      appVersion: JSON.parse(readFileSync(path.join(backend, 'package.json'), 'utf8')).version,
      migration: LATEST_MIGRATION,
    });

    // The site ran on through the backup; what it does after is not in the backup.
    await request(base1).post('/api/video/add-to-bookmarks').set(auth(memberToken)).send({ videoId: videoIds[3], action: 'create' }).expect(200);

    const restore = await run('restore', [backupFolder], site2);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/Restored \(4 videos, 2 accounts, 1 playlists\)/);

    const { proc, base } = await start(site2);
    try {
      const token = await login(base, MEMBER); // the password hashes came along
      expect(await siteState(base, token)).toEqual(before);
      const served = await request(base).get(posterPath).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      }).expect(200);
      expect(Buffer.compare(served.body as Buffer, poster)).toBe(0);
    } finally {
      await stop(proc);
    }
  }, 180_000);

  it('refuses to restore beside the running site, and over a target that is not empty unless --force', async () => {
    const beside = await run('restore', [backupFolder, '--force'], site1);
    expect(beside.code).toBe(1);
    expect(beside.stderr).toMatch(
      server
        ? /^Cannot restore into database test_\w+: the site has \d+ connection\(s\) open on it \(the API or the worker\)\. Stop the site, then run the restore again\./
        : new RegExp(
            `^Cannot restore into ${site1.DATA_DIR}: The embedded database in .* is open in another process \\(pid ${site1Process.pid}\\).*stop that process first`,
          ),
    );
    expect((await request(base1).get('/api/me/bookmarks').set(auth(memberToken)).expect(200)).body.total).toBe(2); // untouched

    // site2 holds the restored site, and now a third account made there.
    const { proc, base } = await start(site2);
    await request(base).post('/api/auth/register').send({ email: 'later@example.com', password: 'signed up after the restore', displayName: 'Later' }).expect(201);
    await stop(proc);

    const notEmpty = await run('restore', [backupFolder], site2);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toMatch(
      server
        ? /^Cannot restore: database test_\w+ and MEDIA_DIR .*site2\/media are not empty\. Restore into an empty database \(createdb\) and an empty MEDIA_DIR, or add --force to replace what is there\./
        : /^Cannot restore: the embedded database .*site2\/pglite and MEDIA_DIR .*site2\/media are not empty\. Restore into a fresh DATA_DIR \(and MEDIA_DIR\), or add --force to replace what is there\./,
    );

    const forced = await run('restore', [backupFolder, '--force'], site2);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/Restored \(4 videos, 2 accounts, 1 playlists\)/); // the third account is gone
  }, 180_000);

  it('backs up a stopped site (the embedded database: opened by the command itself, under the lock)', async () => {
    await stop(site1Process);
    const folder = path.join(root, 'backups', 'stopped');
    const backup = await run('backup', ['--out', folder], site1);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(server ? /Database: pg_dump of DATABASE_URL/ : /Database: no process has .*site1\/pglite open; snapshot taken directly/);

    const site3 = await siteEnv('site3');
    const restore = await run('restore', [folder], site3);
    expect(restore.code).toBe(0);
    const { base } = await start(site3);
    const token = await login(base, MEMBER);
    // Everything up to the stop, the bookmark made after the first backup included.
    expect((await request(base).get('/api/me/bookmarks').set(auth(token)).expect(200)).body.total).toBe(2);
  }, 180_000);
});
