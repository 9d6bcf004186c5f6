import { Client } from 'pg';
import { BackupError } from './backup-error';
import { runTool } from './files';
import { clientTooOld, databaseNameOf, installHint, libpqTarget, majorVersion, pgDumpArgs, pgRestoreArgs } from './libpq';
import type { StoredFile } from './manifest';

/** The site's own connections say `hunktube` (data-source.ts); the backup's say otherwise. */
const SITE_APPLICATION_NAME = 'hunktube';

async function connect(databaseUrl: string): Promise<Client> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'hunktube-backup', connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    const name = databaseNameOf(databaseUrl);
    if ((error as { code?: string }).code === '3D000') {
      throw new BackupError(`Database ${name} does not exist on that server: create it first (createdb ${name}) and run the command again.`);
    }
    throw new BackupError(`Cannot connect to DATABASE_URL (database ${name}): ${(error as Error).message}`);
  }
  return client;
}

/** The newest migration applied, or null on a database the app never started on. */
async function latestMigration(client: Client): Promise<string | null> {
  const [{ present }] = (await client.query<{ present: boolean }>(`SELECT to_regclass('public.migrations') IS NOT NULL AS present`)).rows;
  if (!present) return null;
  return (await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY "timestamp" DESC LIMIT 1')).rows[0]?.name ?? null;
}

async function toolVersion(tool: 'pg_dump' | 'pg_restore'): Promise<{ text: string; major: number }> {
  const run = await runTool(tool, ['--version'], { missingHint: installHint(tool) });
  const major = majorVersion(run.stdout);
  if (run.code !== 0 || major === null) throw new BackupError(`${tool} --version failed: ${run.stderr || run.stdout}`);
  return { text: run.stdout, major };
}

/**
 * pg_dump of DATABASE_URL into `file`: one consistent snapshot (pg_dump's own transaction) while the site runs
 * on. Refuses early, with what to install, when pg_dump is missing or older than the server.
 */
export async function dumpServer(databaseUrl: string, file: string): Promise<Omit<StoredFile, 'file'> & { migration: string | null; tool: string }> {
  const tool = await toolVersion('pg_dump');
  const client = await connect(databaseUrl);
  let serverMajor: number;
  let migration: string | null;
  try {
    serverMajor = Math.floor(Number((await client.query<{ v: string }>(`SELECT current_setting('server_version_num') AS v`)).rows[0].v) / 10_000);
    migration = await latestMigration(client);
  } finally {
    await client.end();
  }
  const tooOld = clientTooOld('pg_dump', tool.major, serverMajor);
  if (tooOld) throw new BackupError(tooOld);
  const target = libpqTarget(databaseUrl);
  const run = await runTool('pg_dump', pgDumpArgs(target.dbname), { env: target.env, outputFile: file, missingHint: installHint('pg_dump') });
  if (run.code !== 0) throw new BackupError(`pg_dump failed: ${run.stderr || `exit ${run.code}`}`);
  return { ...(run.output as Omit<StoredFile, 'file'>), migration, tool: tool.text };
}

export interface ServerTarget {
  /** Relations in the public schema: 0 for an empty database. */
  relations: number;
  /** Connections of the site (API, worker) on the database. */
  siteConnections: number;
}

/** What is in the database a restore would write into. */
export async function inspectServerTarget(databaseUrl: string): Promise<ServerTarget> {
  const client = await connect(databaseUrl);
  try {
    const [row] = (
      await client.query<ServerTarget>(
        `SELECT (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public') AS relations,
                (SELECT count(*)::int FROM pg_stat_activity
                  WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()) AS "siteConnections"`,
        [SITE_APPLICATION_NAME],
      )
    ).rows;
    return row;
  } finally {
    await client.end();
  }
}

/** Empties the public schema (restore --force): the app keeps all of its objects there. */
export async function clearServerDatabase(databaseUrl: string): Promise<void> {
  const client = await connect(databaseUrl);
  try {
    await client.query('DROP SCHEMA public CASCADE');
    await client.query('CREATE SCHEMA public');
  } finally {
    await client.end();
  }
}

/** pg_restore of a backup's archive into the (empty) database, in one transaction. */
export async function restoreServer(databaseUrl: string, file: string, dumpedBy: string): Promise<void> {
  const tool = await toolVersion('pg_restore');
  const dumpMajor = majorVersion(dumpedBy);
  if (dumpMajor !== null && tool.major < dumpMajor) {
    throw new BackupError(
      `This backup was written by ${dumpedBy}, which pg_restore ${tool.major} may not read: install the PostgreSQL ${dumpMajor} client tools ` +
        `(Debian and Ubuntu: apt-get install postgresql-client-${dumpMajor}) and run it again.`,
    );
  }
  const target = libpqTarget(databaseUrl);
  const run = await runTool('pg_restore', pgRestoreArgs(target.dbname, file), { env: target.env, missingHint: installHint('pg_restore') });
  if (run.code !== 0) throw new BackupError(`pg_restore failed, and restored nothing (one transaction): ${run.stderr || `exit ${run.code}`}`);
}

/** A few counts of a restored database, for the operator to check against the site. */
export async function countsOf(query: (sql: string) => Promise<{ rows: Record<string, number>[] }>): Promise<Record<string, number> | null> {
  try {
    const { rows } = await query(
      `SELECT (SELECT count(*)::int FROM videos) AS videos, (SELECT count(*)::int FROM users) AS accounts,
              (SELECT count(*)::int FROM playlists) AS playlists`,
    );
    return rows[0] ?? null;
  } catch {
    return null; // a database the app never started on
  }
}

export async function serverCounts(databaseUrl: string): Promise<Record<string, number> | null> {
  const client = await connect(databaseUrl);
  try {
    return await countsOf((sql) => client.query(sql));
  } finally {
    await client.end();
  }
}
