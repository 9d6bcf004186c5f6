/**
 * How pg_dump and pg_restore are called on DATABASE_URL. The password goes in PGPASSWORD, not on the command
 * line, where every local user could read it in the process list.
 */
export function libpqTarget(databaseUrl: string): { dbname: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** The database's name, for messages: `postgres://u@h/app?x` → `app`. */
export function databaseNameOf(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || '(default)';
}

/** The major version in `pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)` or `9.6.24`; null if none. */
export function majorVersion(text: string): number | null {
  const match = /(\d+)\.(\d+)/.exec(text);
  if (!match) return null;
  const major = Number(match[1]);
  return major >= 10 ? major : Number(`${major}.${match[2]}`);
}

/** Custom format: compressed, restorable in one transaction (owners and grants are pg_restore's choice). */
export const pgDumpArgs = (dbname: string) => ['--format=custom', `--dbname=${dbname}`];

/**
 * All or nothing (`--single-transaction`, `--exit-on-error`), owned by the restoring role whatever role owned the
 * original (`--no-owner`, `--no-privileges`): a backup of the container stack's `app` user restores anywhere.
 */
export const pgRestoreArgs = (dbname: string, file: string) => [
  '--no-owner',
  '--no-privileges',
  '--single-transaction',
  '--exit-on-error',
  `--dbname=${dbname}`,
  file,
];

/** Why this client cannot work with that server, or null: pg_dump refuses a server of a newer major version. */
export function clientTooOld(tool: string, toolMajor: number, serverMajor: number): string | null {
  if (toolMajor >= serverMajor) return null;
  return (
    `${tool} ${toolMajor} cannot work with a PostgreSQL ${serverMajor} server: install the PostgreSQL ${serverMajor} client tools ` +
    `(Debian and Ubuntu: apt-get install postgresql-client-${serverMajor}, from apt.postgresql.org if need be) and run it again.`
  );
}

export const installHint = (tool: string) =>
  `${tool} was not found on the PATH. Backups of a PostgreSQL server need the PostgreSQL client tools of the server's major version or newer ` +
  '(Debian and Ubuntu: apt-get install postgresql-client; macOS: brew install libpq).';
