import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import type { AppModuleOptions } from '../../src/app.module';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { dataSourceOptions, openDataSource } from '../../src/database/data-source';
import type { PGlitePool } from '../../src/database/pglite-pool';
import { VIDEO_FIELDS } from '../../src/common/cache/change-events';
import { InvalidationBus } from '../../src/common/cache/invalidation-bus';
import type { JobRow } from '../../src/jobs/job-types';

/**
 * The whole app for e2e tests. By default on an in-memory PGlite; with TEST_DB=postgres (set by
 * `npm test` when TEST_DATABASE_URL is given) on a fresh database of that PostgreSQL server, dropped after.
 */
export interface TestApp {
  app: INestApplication;
  http: App;
  db: DataSource;
  config: AppConfig;
  /**
   * Empties every cache, as an admin's clear-cache does (CachesCleared), after writing behind the API's back;
   * `missed` as when the bus was down instead: the outage answers stay.
   */
  clearCaches(reason?: 'asked' | 'missed'): void;
  /** Announces videos written behind the API's back (SQL by hand) as their owner would: VideoChanged, every field. */
  videosChanged(ids: number[]): void;
  close(): Promise<void>;
}

export const onPostgresServer = () => process.env.TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;

export async function createTestApp(
  env: Record<string, string> = {},
  options: AppModuleOptions = {},
  /** Rewrites the fresh database's URL, say to reach it through a fault-test proxy. */
  viaDatabaseUrl: (url: string) => string = (url) => url,
): Promise<TestApp> {
  let databaseUrl: string | undefined;
  let dropDatabase = async () => undefined as void;
  if (onPostgresServer()) {
    ({ databaseUrl, dropDatabase } = await createServerDatabase(process.env.TEST_DATABASE_URL as string));
    databaseUrl = viaDatabaseUrl(databaseUrl);
  }
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_AUTH: '0',
      RATE_LIMIT_WRITE: '0',
      RATE_LIMIT_READ: '0',
      DATA_DIR: '/nonexistent-test-data-dir',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    }),
    inMemoryDatabase: !databaseUrl,
    ...(databaseUrl ? {} : { inMemorySnapshot: await migratedSnapshot() }),
  };
  const app = await createApp(config, options);
  await app.init();
  const db = app.get(DataSource);
  return {
    app,
    http: app.getHttpServer() as App,
    db,
    config,
    clearCaches(reason = 'asked') {
      app.get(InvalidationBus).publish({ type: 'CachesCleared', reason });
    },
    videosChanged(ids) {
      app.get(InvalidationBus).publish({ type: 'VideoChanged', ids, fields: VIDEO_FIELDS });
    },
    async close() {
      await app.close();
      await dropDatabase();
    },
  };
}

/**
 * The migrated database alone, for tests of SQL where no HTTP is involved: in-memory PGlite, or with
 * TEST_DB=postgres a fresh database of that server (dropped by `close`). Boots in a fraction of an app's time.
 */
export async function createTestDatabase(): Promise<{ db: DataSource; close(): Promise<void> }> {
  if (onPostgresServer()) {
    const { databaseUrl, dropDatabase } = await createServerDatabase(process.env.TEST_DATABASE_URL as string);
    const db = await openDataSource(dataSourceOptions({ databaseUrl, dataDir: '/nonexistent-test-data-dir', inMemoryDatabase: false }));
    return { db, close: async () => { await db.destroy(); await dropDatabase(); } };
  }
  const db = await openDataSource(
    dataSourceOptions({ databaseUrl: null, dataDir: '/nonexistent-test-data-dir', inMemoryDatabase: true, inMemorySnapshot: await migratedSnapshot() }),
  );
  return { db, close: () => db.destroy() };
}

/**
 * An embedded database on disk in `pgliteDir` as a site that has run before leaves it: the migrated dump written
 * there (1.3 s here), for tests of what happens to an existing one (its lock, its snapshots); a first start makes its
 * cluster and runs every migration instead (about 3 s), which the process and backup suites go through.
 */
export async function migratedDataDir(pgliteDir: string): Promise<void> {
  const db = await PGlite.create({ dataDir: pgliteDir, loadDataDir: await migratedSnapshot() });
  await db.close();
}

let snapshot: Promise<Blob> | undefined;

/**
 * A new, migrated PGlite database as a dump (`dumpDataDir`), for every in-memory database of the run to start
 * from: a new PGlite makes its cluster (initdb) and the migrations run in 2-5 s on this machine, loading a dump
 * takes under one. Made once for each version of the migrations and of PGlite, kept in the system's temporary
 * folder where every test file's process finds it.
 */
export function migratedSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const migrations = path.resolve(__dirname, '../../src/database/migrations');
    // PGlite's version, from its package.json (not among its exports): a dump is read by the version that wrote it.
    const pglite = path.join(path.dirname(createRequire(__filename).resolve('@electric-sql/pglite')), '..', 'package.json');
    const hash = createHash('sha256').update(readFileSync(existsSync(pglite) ? pglite : migrations));
    for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(path.join(migrations, file)));
    const file = path.join(tmpdir(), `hunktube-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
    if (!existsSync(file)) {
      const db = await openDataSource(dataSourceOptions({ databaseUrl: null, dataDir: '/nonexistent-test-data-dir', inMemoryDatabase: true }));
      const pool = (db.driver as unknown as { master: PGlitePool }).master;
      const dump = await pool.exclusive((pglite) => pglite.dumpDataDir('none'));
      await db.destroy();
      // Written beside its name and renamed to it: a file that another test process reads is always whole.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
    }
    return new Blob([readFileSync(file)]);
  })();
  return snapshot;
}

export async function createServerDatabase(serverUrl: string) {
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dropDatabase: async () => {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

let userCounter = 0;

/**
 * Registers a new account through the API. The default password passes the password rule for the names made
 * here: it is not a common one, and neither "userN…" nor "User N" can occur in it.
 */
export async function registerUser(http: App, fields: Partial<{ email: string; password: string; displayName: string }> = {}): Promise<TestUser> {
  userCounter += 1;
  const email = fields.email ?? `user${userCounter}.${randomBytes(3).toString('hex')}@example.com`;
  const res = await request(http)
    .post('/api/auth/register')
    .send({ email, password: fields.password ?? 'correct horse battery', displayName: fields.displayName ?? `User ${userCounter}` })
    .expect(201);
  return { id: res.body.user.id, email, token: res.body.accessToken };
}

/** Registers an account and makes it an admin directly in the database. */
export async function registerAdmin(t: TestApp): Promise<TestUser> {
  const user = await registerUser(t.http);
  await t.db.query(`UPDATE users SET role_id = 'admin' WHERE id = $1`, [user.id]);
  return user;
}

export const bearer = (user: { token: string }) => ({ Authorization: `Bearer ${user.token}` });

/**
 * An ingest job once `until` holds for it (by default: done or failed), polled every 250 ms; throws with its state
 * and progress past `timeoutMs`.
 */
export async function waitForJob(
  t: Pick<TestApp, 'db'>,
  jobId: number,
  until: (job: JobRow) => boolean = (job) => job.state === 'done' || job.state === 'failed',
  timeoutMs = 150_000,
): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await t.db.query<JobRow[]>('SELECT id, video_id, kind, state, progress, error, attempts, payload FROM ingest_jobs WHERE id = $1', [jobId]);
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.state} (${job.progress}%)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A video's status once its job's end has reached it: the job runner records a failed job, then lets the
 * handler mark the video, so the two land a moment apart.
 */
export async function settledVideoStatus(t: Pick<TestApp, 'db'>, videoId: number): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await t.db.query('SELECT status FROM videos WHERE id = $1', [videoId]);
    if (row.status !== 'processing' || Date.now() > deadline) return row.status as string;
    await new Promise((r) => setTimeout(r, 20));
  }
}
