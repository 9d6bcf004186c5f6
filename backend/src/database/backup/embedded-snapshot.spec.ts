import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { dataSourceOptions, openDataSource } from '../data-source';
import { lockFileOf } from '../embedded-lock';
import { BackupError } from './backup-error';
import { requestSnapshot, serveSnapshots, snapshotClosed, socketFileOf } from './embedded-snapshot';
import { MIGRATIONS } from '../migrations';
import { migratedDataDir } from '../../../test/helpers/test-app';

/** The schema a backup taken now records: the newest migration's name. */
const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1].name;

/** The running server's side of `npm run backup` on the embedded database, through the real socket. */
describe('snapshots of the embedded database', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'snap-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = () => openDataSource(dataSourceOptions({ databaseUrl: null, dataDir: dir, inMemoryDatabase: false }));
  const pgliteDir = () => path.join(dir, 'pglite');

  it('are served by the process holding the database, between its transactions, to its owner only', async () => {
    await migratedDataDir(pgliteDir());
    const db = await open();
    const runner = db.createQueryRunner();
    try {
      await db.query('CREATE TABLE notes (id int PRIMARY KEY, body text)');
      await db.query(`INSERT INTO notes VALUES (1, 'kept')`);
      expect(statSync(socketFileOf(pgliteDir())).mode & 0o777).toBe(0o600);

      // A transaction is open when the snapshot is asked for: the snapshot waits for its connection and holds its commit.
      await runner.startTransaction();
      await runner.query(`INSERT INTO notes VALUES (2, 'committed after the request')`);
      const requested = requestSnapshot(pgliteDir(), path.join(dir, 'snap.tar.gz'));
      await new Promise((r) => setTimeout(r, 200));
      await runner.commitTransaction();
      await runner.release();
      const snap = await requested;
      expect(snap.migration).toBe(LATEST_MIGRATION);
      expect(snap.tool).toMatch(/^PGlite dumpDataDir \(PostgreSQL \d+/);
      expect(snap.bytes).toBe(statSync(path.join(dir, 'snap.tar.gz')).size);

      const copy = await PGlite.create({ dataDir: path.join(dir, 'copy'), loadDataDir: new Blob([readFileSync(path.join(dir, 'snap.tar.gz'))]) });
      expect((await copy.query('SELECT id, body FROM notes ORDER BY id')).rows).toEqual([
        { id: 1, body: 'kept' },
        { id: 2, body: 'committed after the request' },
      ]);
      await copy.close();
      expect(await db.query('SELECT count(*)::int AS n FROM notes')).toEqual([{ n: 2 }]); // the server is unharmed
    } finally {
      if (!runner.isReleased) await runner.release();
      await db.destroy();
    }
    expect(existsSync(socketFileOf(pgliteDir()))).toBe(false);
  }, 60_000);

  it('says who holds the database when nobody answers on the socket', async () => {
    mkdirSync(pgliteDir(), { recursive: true });
    writeFileSync(lockFileOf(pgliteDir()), String(process.ppid));
    const asked = requestSnapshot(pgliteDir(), path.join(dir, 'snap.tar.gz'));
    await expect(asked).rejects.toThrow(BackupError);
    await expect(asked).rejects.toThrow(
      new RegExp(`open in another process \\(pid ${process.ppid}\\), which does not answer on .*pglite\\.sock \\(ENOENT\\)\\..*wait for it or stop it, then run the backup again`),
    );
  });

  it('replace a socket left by a dead server, and stay off (the site runs on) when the path is too long', async () => {
    writeFileSync(socketFileOf(pgliteDir()), 'left over');
    const stop = await serveSnapshots(pgliteDir(), async () => ({ migration: null, tool: 't', tarball: new Blob([new Uint8Array([1, 2, 3])]) }));
    const got = await requestSnapshot(pgliteDir(), path.join(dir, 'three.gz'));
    expect(got).toMatchObject({ bytes: statSync(path.join(dir, 'three.gz')).size, migration: null, tool: 't' });
    expect([...gunzipSync(readFileSync(path.join(dir, 'three.gz')))]).toEqual([1, 2, 3]); // compressed by the command
    await stop();

    const warnings: string[] = [];
    const long = path.join(dir, 'x'.repeat(120), 'pglite');
    const stopLong = await serveSnapshots(long, async () => ({ migration: null, tool: 't', tarball: new Blob([]) }), (m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringMatching(/^Online backups are off: the socket path .* is longer than 103 bytes \(use a shorter DATA_DIR\)/)]);
    await stopLong();
  });

  it('are taken directly, under the lock, when no process has the database open', async () => {
    await migratedDataDir(pgliteDir());
    await (await open()).destroy();
    const { info, release } = await snapshotClosed(pgliteDir(), path.join(dir, 'closed.tar.gz'));
    try {
      expect(info.migration).toBe(LATEST_MIGRATION);
      await expect(open()).rejects.toThrow(/open in this process already/); // no server can start meanwhile
    } finally {
      release();
    }
    await expect(snapshotClosed(path.join(dir, 'nothing', 'pglite'), path.join(dir, 'x'))).rejects.toThrow(/There is no embedded database in .*nothing\/pglite: check DATA_DIR/);
  }, 60_000);
});
