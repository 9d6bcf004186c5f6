import * as path from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { serveSnapshotsOf } from './backup/embedded-snapshot';
import { ENTITIES } from './entities';
import { tightenFiles } from '../config/data-dir';
import { lockEmbeddedDatabase } from './embedded-lock';
import { MIGRATIONS } from './migrations';
import { pgliteDriver } from './pglite-pool';

/** PostgreSQL through `pg` when DATABASE_URL is set, else PGlite in DATA_DIR: the same schema and migrations. */
export function dataSourceOptions(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir' | 'inMemoryDatabase'> & Partial<Pick<AppConfig, 'inMemorySnapshot'>>,
): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    installExtensions: false,
  };
  if (config.databaseUrl) {
    // A server that does not accept the connection within 3 s is down: the request answers 503 instead of waiting.
    return { ...common, url: config.databaseUrl, poolSize: 20, applicationName: 'hunktube', connectTimeoutMS: 3000 };
  }
  if (config.inMemoryDatabase) return { ...common, driver: pgliteDriver, extra: { pglite: { loadDataDir: config.inMemorySnapshot } } };
  return { ...common, driver: pgliteDriver, extra: { pglite: { dataDir: path.join(config.dataDir, 'pglite') } } };
}

/** Runs pending migrations; on a server, under an advisory lock so that replicas starting together take turns. */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (!isServer(dataSource)) {
    // PGlite is one session owned by this process: nobody to take turns with, and a second query runner
    // would wait forever for the one holding the lock.
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const lockId = 7_340_123;
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [lockId]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    await runner.release();
  }
}

export function isServer(dataSource: DataSource): boolean {
  return (dataSource.options as { driver?: unknown }).driver !== pgliteDriver;
}

export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  // The embedded database on disk is one process's at a time: a second one (a CLI beside the server) is refused.
  const embeddedDir = (options as { extra?: { pglite?: { dataDir?: string } } }).extra?.pglite?.dataDir;
  const release = embeddedDir ? lockEmbeddedDatabase(embeddedDir) : () => undefined;
  const dataSource = new DataSource(options);
  try {
    await dataSource.initialize();
  } catch (error) {
    release();
    throw error;
  }
  // Owner-only, as the rest of DATA_DIR: a new embedded database is written with its archive's modes (0666),
  // and an older version's files may be open to others.
  if (embeddedDir) tightenFiles(embeddedDir);
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    try {
      await destroy();
    } finally {
      release();
    }
  };
  await runMigrations(dataSource);
  // A database loaded from a dump (the tests' in-memory ones) has the statistics of the one dumped, which ran
  // this ANALYZE; it took a tenth of a second of each test app's boot.
  const fromDump = !!(options as { extra?: { pglite?: { loadDataDir?: unknown } } }).extra?.pglite?.loadDataDir;
  if (!isServer(dataSource) && !fromDump) {
    // PGlite runs no autovacuum, so nothing else keeps the planner's statistics; without them it picks
    // nested loops over the whole catalogue (a category listing went from 6 ms to 300 ms on 100k videos).
    await dataSource.query('ANALYZE');
  }
  if (embeddedDir) {
    // Whoever holds the embedded database answers `npm run backup` on DATA_DIR/pglite.sock (see backup/).
    const stopSnapshots = await serveSnapshotsOf(dataSource, embeddedDir);
    const close = dataSource.destroy;
    dataSource.destroy = async () => {
      await stopSnapshots();
      await close();
    };
  }
  return dataSource;
}
