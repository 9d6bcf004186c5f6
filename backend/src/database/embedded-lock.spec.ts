import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { dataSourceOptions, openDataSource } from './data-source';
import { DatabaseInUseError, lockEmbeddedDatabase, lockFileOf } from './embedded-lock';
import { migratedSnapshot } from '../../test/helpers/test-app';

/** One process at a time on the embedded database: a CLI run beside the server is refused, not let in. */
describe('the embedded database lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'embedded-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const options = () => dataSourceOptions({ databaseUrl: null, dataDir: dir, inMemoryDatabase: false });

  it('refuses a second open of the same data directory until the first is closed', async () => {
    const first = await openDataSource(options());
    try {
      await expect(openDataSource(options())).rejects.toThrow(DatabaseInUseError);
      expect(await first.query('SELECT 1 AS one')).toEqual([{ one: 1 }]); // the first is unharmed
    } finally {
      await first.destroy();
    }
    expect(existsSync(lockFileOf(path.join(dir, 'pglite')))).toBe(false);
    const again = await openDataSource(options());
    await again.destroy();
  }, 60_000);

  it('names the process that holds it and says what to do', () => {
    const dataDir = path.join(dir, 'pglite');
    writeFileSync(lockFileOf(dataDir), String(process.ppid)); // alive: the test runner
    expect(() => lockEmbeddedDatabase(dataDir)).toThrow(
      new RegExp(`open in another process \\(pid ${process.ppid}\\).*stop that process first, or run both against a PostgreSQL server with DATABASE_URL`),
    );
  });

  it('takes over a lock left by a process that is gone', () => {
    const dataDir = path.join(dir, 'pglite');
    writeFileSync(lockFileOf(dataDir), '2147483646');
    const release = lockEmbeddedDatabase(dataDir);
    expect(() => lockEmbeddedDatabase(dataDir)).toThrow(/open in this process already/);
    release();
    lockEmbeddedDatabase(dataDir)();
  });

  it('leaves in-memory databases and servers alone', async () => {
    const inMemory = { databaseUrl: null, dataDir: dir, inMemoryDatabase: true, inMemorySnapshot: await migratedSnapshot() };
    const memory = await openDataSource(dataSourceOptions(inMemory));
    const second = await openDataSource(dataSourceOptions(inMemory));
    await Promise.all([memory.destroy(), second.destroy()]);
  }, 60_000);
});
