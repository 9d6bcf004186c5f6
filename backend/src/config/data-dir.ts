import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** DATA_DIR can be written by users other than its owner: the server will not use it. */
export class UnsafeDataDirError extends Error {}

/**
 * DATA_DIR holds the embedded database (every e-mail address and password hash), the install's secrets and, by
 * default, the media sources: it is the server's alone. Made owner-only (0700) when it is created here; an
 * existing one that its group or others can write is refused, saying how to fix it (anyone who can write the
 * folder can replace the database's files or the secrets). One that others can only read is tightened to 0700.
 */
export function secureDataDir(dataDir: string): void {
  let mode: number;
  try {
    mode = statSync(dataDir).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
    return;
  }
  if (mode & 0o022) {
    throw new UnsafeDataDirError(
      `DATA_DIR ${dataDir} can be written by users other than its owner (mode ${mode.toString(8).padStart(4, '0')}). ` +
        `It holds the database and the install's secrets: run \`chmod 700 ${quote(dataDir)}\` (and make sure its owner is the user ` +
        'the server runs as), then start again.',
    );
  }
  if (mode & 0o077) chmodSync(dataDir, 0o700);
}

/**
 * For a process that opens the embedded database: every file it creates from now on is owner-only (umask 077):
 * the secrets', the media's (this process serves them itself; the container stack, whose nginx reads the media
 * as another user, runs on a PostgreSQL server and never gets here). What the database folder already holds is
 * tightened by `tightenFiles` once the database is open (`openDataSource`) or restored.
 */
export function ownerOnlyFiles(): void {
  process.umask(0o077);
}

/**
 * Takes group and other bits off everything under `entry` (links are not followed). PGlite writes the files of
 * a new database with the modes of its archive (0666, whatever the umask) and a few at run time 0644: tightened
 * once it is open. What keeps other users out between two tightenings is DATA_DIR's own 0700.
 */
export function tightenFiles(entry: string): void {
  let stat;
  try {
    stat = lstatSync(entry);
  } catch {
    return;
  }
  if (stat.isSymbolicLink()) return;
  if (stat.mode & 0o077) chmodSync(entry, stat.mode & 0o700);
  if (stat.isDirectory()) for (const name of readdirSync(entry)) tightenFiles(path.join(entry, name));
}

const quote = (p: string) => (/^[\w./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`);
