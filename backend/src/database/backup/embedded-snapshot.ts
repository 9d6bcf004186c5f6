import { PGlite } from '@electric-sql/pglite';
import { once } from 'node:events';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import { createConnection, createServer, Socket } from 'node:net';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGzip } from 'node:zlib';
import type { DataSource } from 'typeorm';
import { lockEmbeddedDatabase, lockFileOf } from '../embedded-lock';
import type { PGlitePool } from '../pglite-pool';
import { BackupError } from './backup-error';
import { writeHashed } from './files';
import type { StoredFile } from './manifest';

/**
 * PGlite is one process's: while the server runs, `npm run backup` cannot open the database. The process that
 * holds DATA_DIR/pglite.lock therefore answers on a Unix socket beside it, DATA_DIR/pglite.sock (mode 0600: only
 * the user the server runs as, who can read the data folder anyway), with a snapshot of the data folder taken
 * between two of its transactions. Nothing listens on the network and no credentials are involved.
 */
export const socketFileOf = (pgliteDir: string) => `${path.resolve(pgliteDir)}.sock`;

/** Unix socket paths are limited to 108 bytes on Linux and 104 on macOS, the terminating NUL included. */
export const SOCKET_PATH_MAX = 103;

/** The one request: a line, so that a later version can add others. */
const REQUEST = 'snapshot 1\n';

export interface SnapshotInfo {
  /** The newest migration applied, or null. */
  migration: string | null;
  /** `PGlite dumpDataDir (PostgreSQL 17.5)`. */
  tool: string;
}

export interface Snapshot extends SnapshotInfo {
  /** The data folder as a tarball, as PGlite's `dumpDataDir` writes it and `loadDataDir` reads it (gzipped too). */
  tarball: Blob;
}

/**
 * A consistent copy of a PGlite database: a checkpoint, then the data folder read while nothing runs in the
 * instance. The caller guarantees no transaction of its own is open (PGlitePool.exclusive); what PostgreSQL has
 * not checkpointed is in the WAL copied with it, so the copy opens as after a clean stop. Uncompressed: reading
 * the folder is what holds the database (0.3 s for 160 MB, against 3.5 s with PGlite's gzip), so the command
 * compresses, in its own process.
 */
export async function takeSnapshot(db: PGlite): Promise<Snapshot> {
  await db.exec('CHECKPOINT');
  const version = (await db.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? 'unknown';
  const migration = await latestMigration(db);
  return { migration, tool: `PGlite dumpDataDir (PostgreSQL ${version})`, tarball: await db.dumpDataDir('none') };
}

async function latestMigration(db: PGlite): Promise<string | null> {
  const [{ present }] = (await db.query<{ present: boolean }>(`SELECT to_regclass('public.migrations') IS NOT NULL AS present`)).rows;
  if (!present) return null;
  return (await db.query<{ name: string }>('SELECT name FROM migrations ORDER BY "timestamp" DESC LIMIT 1')).rows[0]?.name ?? null;
}

/**
 * Serves snapshots on the socket beside `pgliteDir` until the returned stop is called. Called by whoever holds
 * the lock (the server, or a command such as seed:catalog): a socket file left there is a dead holder's. Never
 * throws: without the socket the site runs on, and `npm run backup` says it cannot reach it.
 */
export async function serveSnapshots(
  pgliteDir: string,
  snapshot: () => Promise<Snapshot>,
  warn: (message: string) => void = (m) => console.warn(m),
): Promise<() => Promise<void>> {
  const file = socketFileOf(pgliteDir);
  if (Buffer.byteLength(file) > SOCKET_PATH_MAX) {
    warn(`Online backups are off: the socket path ${file} is longer than ${SOCKET_PATH_MAX} bytes (use a shorter DATA_DIR).`);
    return async () => undefined;
  }
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    answer(socket, snapshot);
  });
  try {
    await fs.rm(file, { force: true });
    // The socket is made with the process's umask; no one else may connect even for an instant.
    const umask = process.umask(0o177);
    try {
      server.listen(file);
    } finally {
      process.umask(umask);
    }
    await once(server, 'listening');
    await fs.chmod(file, 0o600);
  } catch (error) {
    warn(`Online backups are off: cannot listen on ${file}: ${(error as Error).message}`);
    server.close();
    return async () => undefined;
  }
  server.unref();
  return async () => {
    // A backup still reading is cut (its command says so); waiting for it could hold the shutdown.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of connections) socket.destroy();
    await closed;
    await fs.rm(file, { force: true });
  };
}

/** Serves snapshots of a data source opened on PGlite, each taken between two of its transactions. */
export function serveSnapshotsOf(dataSource: DataSource, pgliteDir: string): Promise<() => Promise<void>> {
  const pool = (dataSource.driver as unknown as { master: PGlitePool }).master;
  return serveSnapshots(pgliteDir, () => pool.exclusive(takeSnapshot));
}

function answer(socket: Socket, snapshot: () => Promise<Snapshot>): void {
  socket.on('error', () => undefined); // the client went away; nothing to do
  // A client that connects and says nothing is let go.
  socket.setTimeout(10_000, () => socket.destroy());
  let request = '';
  socket.setEncoding('latin1');
  const onData = (text: string) => {
    request += text;
    if (!request.includes('\n') && request.length < REQUEST.length) return;
    socket.off('data', onData);
    socket.setTimeout(0);
    if (request !== REQUEST) {
      socket.end(`${JSON.stringify({ ok: false, error: 'Unknown request' })}\n`);
      return;
    }
    snapshot().then(
      ({ tarball, ...info }) => {
        socket.write(`${JSON.stringify({ ok: true, bytes: tarball.size, ...info })}\n`);
        streamOf(tarball).pipe(socket);
      },
      (error: Error) => socket.end(`${JSON.stringify({ ok: false, error: error.message })}\n`),
    );
  };
  socket.on('data', onData);
}

const streamOf = (blob: Blob): Readable => Readable.fromWeb(blob.stream() as WebReadableStream<Uint8Array>);

/** Gzips a tarball into the backup's file; answers the file's size and hash. */
async function writeGzipped(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, file: string): Promise<Omit<StoredFile, 'file'>> {
  const gzip = createGzip();
  const input = Readable.from(source);
  input.on('error', (error) => gzip.destroy(error));
  return writeHashed(input.pipe(gzip), file);
}

/** The pid in the lock file, for messages. */
export function lockHolderOf(pgliteDir: string): number | null {
  try {
    const pid = Number(readFileSync(lockFileOf(pgliteDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Asks the process holding the database for a snapshot and writes it to `file`. */
export async function requestSnapshot(pgliteDir: string, file: string): Promise<SnapshotInfo & Omit<StoredFile, 'file'>> {
  const socketFile = socketFileOf(pgliteDir);
  const socket = createConnection(socketFile);
  try {
    await once(socket, 'connect');
  } catch (error) {
    const pid = lockHolderOf(pgliteDir);
    throw new BackupError(
      `The embedded database in ${path.dirname(pgliteDir)} is open in another process${pid ? ` (pid ${pid})` : ''}, which does not answer ` +
        `on ${socketFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). A server of this version answers there: ` +
        'if that process is an older server or a command such as seed:catalog, wait for it or stop it, then run the backup again.',
    );
  }
  socket.write(REQUEST);
  let header: { ok: boolean; error?: string; bytes?: number } & Partial<SnapshotInfo> = { ok: false };
  async function* body(): AsyncGenerator<Buffer> {
    let head = Buffer.alloc(0);
    let parsed = false;
    for await (const chunk of socket) {
      if (parsed) {
        yield chunk as Buffer;
        continue;
      }
      head = Buffer.concat([head, chunk as Buffer]);
      const end = head.indexOf(10);
      if (end < 0) {
        if (head.length > 65_536) throw new BackupError('The server answered something that is not a snapshot.');
        continue;
      }
      header = JSON.parse(head.subarray(0, end).toString('utf8'));
      parsed = true;
      if (!header.ok) throw new BackupError(`The server could not take a snapshot of the database: ${header.error ?? 'no reason given'}`);
      if (end + 1 < head.length) yield head.subarray(end + 1);
    }
  }
  let received = 0;
  const written = await writeGzipped(
    (async function* () {
      for await (const chunk of body()) {
        received += chunk.length;
        yield chunk;
      }
    })(),
    file,
  );
  if (!header.ok || received !== header.bytes) {
    throw new BackupError(`The snapshot from the server was cut short (${received} of ${header.bytes ?? '?'} bytes): run the backup again.`);
  }
  return { ...written, migration: header.migration ?? null, tool: header.tool ?? 'PGlite dumpDataDir' };
}

/**
 * With no process on the database: takes the lock (so that no server starts meanwhile), opens the folder and
 * writes a snapshot. The lock is kept (released by the returned function) while the media are archived.
 * Throws DatabaseInUseError when a process holds it, and a BackupError when there is no database.
 */
export async function snapshotClosed(pgliteDir: string, file: string): Promise<{ info: SnapshotInfo & Omit<StoredFile, 'file'>; release: () => void }> {
  const release = lockEmbeddedDatabase(pgliteDir);
  try {
    if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
      throw new BackupError(`There is no embedded database in ${pgliteDir}: check DATA_DIR (nothing to back up).`);
    }
    const db = await PGlite.create({ dataDir: pgliteDir });
    let snapshot: Snapshot;
    try {
      snapshot = await takeSnapshot(db);
    } finally {
      await db.close();
    }
    const { tarball, ...info } = snapshot;
    const written = await writeGzipped(streamOf(tarball), file);
    return { info: { ...info, ...written }, release };
  } catch (error) {
    release();
    throw error;
  }
}

