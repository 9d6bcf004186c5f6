import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ownerOnlyFiles, secureDataDir } from '../config/data-dir';

/** The embedded database is one process's: a second one writing the same files would corrupt it. */
export class DatabaseInUseError extends Error {}

/** Beside the database folder, not in it (PostgreSQL's own files stay its own): `DATA_DIR/pglite.lock`. */
export const lockFileOf = (dataDir: string) => `${path.resolve(dataDir)}.lock`;

/** Folders this process holds the lock of (a lock file naming our own pid is stale unless it is in here). */
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded database folder for this process, or throws DatabaseInUseError naming the process that has
 * it (the server, usually, when a command such as `npm run seed:catalog` is run beside it). A lock left by a
 * process that died is taken over. Returns the release, which also runs when the process exits.
 */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  const file = lockFileOf(dataDir);
  // The folder it lives in must be this user's alone, and what the process writes from here on is.
  secureDataDir(path.dirname(file));
  ownerOnlyFiles();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      const ours = pid === process.pid && held.has(dataDir);
      if (ours || (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid))) {
        throw new DatabaseInUseError(
          `The embedded database in ${dataDir} is open in ${ours ? 'this process already' : `another process (pid ${pid}), probably the server started with npm start`}. ` +
            'PGlite lets one process at a time use it: stop that process first, or run both against a PostgreSQL server with DATABASE_URL.',
        );
      }
      unlinkSync(file); // a lock left by a process that is gone
      continue;
    }
    held.add(dataDir);
    const release = () => {
      if (!held.delete(dataDir)) return;
      try {
        if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
      } catch {
        // already gone
      }
    };
    process.once('exit', release);
    return release;
  }
  throw new DatabaseInUseError(`Could not take the lock of the embedded database in ${dataDir}`);
}
