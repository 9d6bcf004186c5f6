import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AppConfig } from '../../config/app-config';
import { DatabaseInUseError, lockFileOf } from '../embedded-lock';
import { BackupError } from './backup-error';
import { lockHolderOf, requestSnapshot, snapshotClosed, socketFileOf } from './embedded-snapshot';
import { archiveMedia, mediaExcludes } from './media-archive';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  backupFolderName,
  BackupManifest,
  BackupMode,
  DATABASE_FILE,
  MANIFEST_FILE,
  MEDIA_FILE,
} from './manifest';
import { dumpServer } from './server-database';

export type BackupConfig = Pick<AppConfig, 'dataDir' | 'mediaDir' | 'databaseUrl'>;

export const modeOf = (config: Pick<AppConfig, 'databaseUrl'>): BackupMode => (config.databaseUrl ? 'server' : 'embedded');
export const pgliteDirOf = (config: Pick<AppConfig, 'dataDir'>) => path.join(config.dataDir, 'pglite');

/** backend/package.json's version; the same path from src/ and dist/. */
export function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * Writes a backup folder: the database (a snapshot of the embedded one, from the running server when there is
 * one, or pg_dump of the server's), then the media store, then the manifest. It is written as `<folder>.partial`
 * and renamed when complete, so a folder with the final name is always whole. The database goes first: media
 * written meanwhile may be in the archive without a row (harmless), never a row without its files, unless a
 * video is deleted while the backup runs.
 */
export async function createBackup(
  config: BackupConfig,
  options: { out?: string | null; now?: Date; log?: (line: string) => void } = {},
): Promise<{ folder: string; manifest: BackupManifest }> {
  const log = options.log ?? (() => undefined);
  const mode = modeOf(config);
  const createdAt = options.now ?? new Date();
  const backupsRoot = path.join(config.dataDir, 'backups');
  const folder = path.resolve(options.out ?? path.join(backupsRoot, backupFolderName(createdAt)));
  const pgliteDir = pgliteDirOf(config);
  if (existsSync(folder)) throw new BackupError(`${folder} exists already: name a new folder with --out.`);
  if (mode === 'embedded' && !existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    throw new BackupError(`There is no embedded database in ${pgliteDir}: check DATA_DIR (nothing to back up).`);
  }
  const partial = `${folder}.partial`;
  await fs.rm(partial, { recursive: true, force: true });
  await fs.mkdir(partial, { recursive: true, mode: 0o700 });
  let release = () => undefined as void;
  try {
    const databaseFile = DATABASE_FILE[mode];
    let database: Awaited<ReturnType<typeof dumpServer>>;
    if (mode === 'server') {
      log('Database: pg_dump of DATABASE_URL (a consistent snapshot; the site keeps running)');
      database = await dumpServer(config.databaseUrl as string, path.join(partial, databaseFile));
    } else {
      try {
        const closed = await snapshotClosed(pgliteDir, path.join(partial, databaseFile));
        release = closed.release;
        database = closed.info;
        log(`Database: no process has ${pgliteDir} open; snapshot taken directly (the lock is held until the backup ends)`);
      } catch (error) {
        if (!(error instanceof DatabaseInUseError)) throw error;
        log(`Database: open in the running server (pid ${lockHolderOf(pgliteDir) ?? '?'}); asking it for a snapshot on ${socketFileOf(pgliteDir)}`);
        database = await requestSnapshot(pgliteDir, path.join(partial, databaseFile));
      }
    }
    log(`Database: ${mb(database.bytes)}, schema at ${database.migration ?? 'no migration'}`);
    const excludes = mediaExcludes(config.mediaDir, [pgliteDir, lockFileOf(pgliteDir), socketFileOf(pgliteDir), backupsRoot, folder, partial]);
    const media = await archiveMedia(config.mediaDir, path.join(partial, MEDIA_FILE), excludes);
    release();
    log(`Media: ${config.mediaDir}, ${mb(media.bytes)}${media.changed ? ' (some files changed while they were read: they are in as read)' : ''}`);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      mode,
      createdAt: createdAt.toISOString(),
      appVersion: appVersion(),
      migration: database.migration,
      databaseTool: database.tool,
      database: { file: databaseFile, bytes: database.bytes, sha256: database.sha256 },
      media: { file: MEDIA_FILE, bytes: media.bytes, sha256: media.sha256 },
    };
    await fs.writeFile(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(partial, folder);
    return { folder, manifest };
  } catch (error) {
    release();
    await fs.rm(partial, { recursive: true, force: true });
    throw error;
  }
}
