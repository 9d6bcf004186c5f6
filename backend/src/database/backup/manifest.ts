import { BackupError } from './backup-error';

/** Every backup is a folder with this file, the database file and the media archive. */
export const MANIFEST_FILE = 'manifest.json';
export const BACKUP_FORMAT = 'hunktube-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** `embedded`: PGlite's data folder (DATA_DIR/pglite) as a gzip tarball; `server`: a pg_dump custom-format archive. */
export type BackupMode = 'embedded' | 'server';

export interface StoredFile {
  /** Name inside the backup folder. */
  file: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  mode: BackupMode;
  createdAt: string;
  appVersion: string;
  /** The last schema migration applied to the saved database (TypeORM's name); null before the first. */
  migration: string | null;
  /** What wrote the database file, with its PostgreSQL version: restore needs a tool that reads it. */
  databaseTool: string;
  database: StoredFile;
  media: StoredFile;
}

export const DATABASE_FILE: Record<BackupMode, string> = { embedded: 'database.tar.gz', server: 'database.dump' };
export const MEDIA_FILE = 'media.tar';

/** `hunktube-backup-2025-06-01T10-20-30Z`: sorts by time and is a valid file name everywhere. */
export function backupFolderName(date: Date): string {
  return `hunktube-backup-${date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}`;
}

/** Reads a manifest, or throws a BackupError saying why the folder is not a backup this version can read. */
export function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError(`${MANIFEST_FILE} is not JSON: is this folder a backup made by npm run backup?`);
  }
  const m = value as Partial<BackupManifest> | null;
  if (!m || typeof m !== 'object' || m.format !== BACKUP_FORMAT) {
    throw new BackupError(`${MANIFEST_FILE} does not describe a ${BACKUP_FORMAT}: is this folder a backup made by npm run backup?`);
  }
  if (typeof m.formatVersion !== 'number' || m.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(`This backup has format version ${String(m.formatVersion)}; this version of the app reads up to ${BACKUP_FORMAT_VERSION}. Update the app first.`);
  }
  const isFile = (f: unknown): f is StoredFile =>
    !!f && typeof f === 'object' && typeof (f as StoredFile).file === 'string' && /^[\w.-]+$/.test((f as StoredFile).file) &&
    Number.isSafeInteger((f as StoredFile).bytes) && /^[0-9a-f]{64}$/.test(String((f as StoredFile).sha256));
  const problems = [
    m.mode === 'embedded' || m.mode === 'server' ? null : 'mode',
    typeof m.createdAt === 'string' ? null : 'createdAt',
    typeof m.appVersion === 'string' ? null : 'appVersion',
    m.migration === null || typeof m.migration === 'string' ? null : 'migration',
    typeof m.databaseTool === 'string' ? null : 'databaseTool',
    isFile(m.database) ? null : 'database',
    isFile(m.media) ? null : 'media',
  ].filter((p) => p !== null);
  if (problems.length) throw new BackupError(`${MANIFEST_FILE} is damaged (bad ${problems.join(', ')}).`);
  return m as BackupManifest;
}

/**
 * Refuses a backup this installation cannot take: one of the other mode (an embedded backup while DATABASE_URL is
 * set, or the reverse) or one whose schema is newer than this code's migrations.
 */
export function checkRestorable(manifest: BackupManifest, target: { mode: BackupMode; knownMigrations: readonly string[] }): void {
  if (manifest.mode !== target.mode) {
    throw new BackupError(
      manifest.mode === 'embedded'
        ? 'This backup is of the embedded database, but DATABASE_URL is set: unset it to restore into DATA_DIR.'
        : 'This backup is of a PostgreSQL server database, but DATABASE_URL is not set: set it to the (empty) database to restore into.',
    );
  }
  if (manifest.migration !== null && !target.knownMigrations.includes(manifest.migration)) {
    throw new BackupError(
      `This backup's schema (migration ${manifest.migration}) is newer than this version of the app knows: update the app, then restore.`,
    );
  }
}
