import { PGlite } from '@electric-sql/pglite';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { tightenFiles } from '../../config/data-dir';
import { DatabaseInUseError, lockEmbeddedDatabase } from '../embedded-lock';
import { MIGRATIONS } from '../migrations';
import { BackupError } from './backup-error';
import { BackupConfig, modeOf, pgliteDirOf } from './backup';
import { emptyFolder, isEmptyFolder, sha256Of } from './files';
import { BackupManifest, checkRestorable, MANIFEST_FILE, parseManifest, StoredFile } from './manifest';
import { extractMedia } from './media-archive';
import { clearServerDatabase, countsOf, inspectServerTarget, restoreServer, serverCounts } from './server-database';
import { databaseNameOf } from './libpq';

/** Reads and checks a backup folder: its manifest, and each file's size and SHA-256 against it. */
export async function readBackup(folder: string): Promise<BackupManifest> {
  const text = await fs.readFile(path.join(folder, MANIFEST_FILE), 'utf8').catch(() => {
    throw new BackupError(`${folder} has no ${MANIFEST_FILE}: name a folder written by npm run backup.`);
  });
  const manifest = parseManifest(text);
  for (const stored of [manifest.database, manifest.media] as StoredFile[]) {
    const file = path.join(folder, stored.file);
    const size = await fs.stat(file).then((s) => s.size, () => null);
    if (size === null) throw new BackupError(`${file} is missing: the backup is incomplete.`);
    if (size !== stored.bytes || (await sha256Of(file)) !== stored.sha256) {
      throw new BackupError(`${file} is damaged or incomplete: its size or SHA-256 differs from the manifest's.`);
    }
  }
  return manifest;
}

const refuseNotEmpty = (what: string[], fresh: string) =>
  new BackupError(
    `Cannot restore: ${what.join(' and ')} ${what.length > 1 ? 'are' : 'is'} not empty. Restore into ${fresh}, or add --force to replace what is there.`,
  );

/**
 * Restores a backup into the configured DATA_DIR (embedded) or DATABASE_URL (server) and MEDIA_DIR. Everything
 * is checked before anything is written: the backup's files, its mode and schema against this code, that the
 * site is not running on the target, and that the target is empty (or `force`). Answers a few counts of the
 * restored database.
 */
export async function restoreBackup(
  config: BackupConfig,
  source: string,
  options: { force?: boolean; log?: (line: string) => void } = {},
): Promise<{ manifest: BackupManifest; counts: Record<string, number> | null }> {
  const log = options.log ?? (() => undefined);
  const folder = path.resolve(source);
  const manifest = await readBackup(folder);
  const mode = modeOf(config);
  checkRestorable(manifest, { mode, knownMigrations: MIGRATIONS.map((m) => m.name) });
  log(`Backup of ${manifest.createdAt} (${manifest.mode}, app ${manifest.appVersion}, schema at ${manifest.migration ?? 'no migration'}): files check out`);
  const databaseFile = path.join(folder, manifest.database.file);
  const mediaFile = path.join(folder, manifest.media.file);

  if (mode === 'server') {
    const url = config.databaseUrl as string;
    const name = databaseNameOf(url);
    const target = await inspectServerTarget(url);
    if (target.siteConnections > 0) {
      throw new BackupError(
        `Cannot restore into database ${name}: the site has ${target.siteConnections} connection(s) open on it (the API or the worker). Stop the site, then run the restore again.`,
      );
    }
    const mediaEmpty = await isEmptyFolder(config.mediaDir);
    if ((target.relations > 0 || !mediaEmpty) && !options.force) {
      throw refuseNotEmpty([...(target.relations > 0 ? [`database ${name}`] : []), ...(mediaEmpty ? [] : [`MEDIA_DIR ${config.mediaDir}`])], 'an empty database (createdb) and an empty MEDIA_DIR');
    }
    if (target.relations > 0) {
      log(`--force: emptying database ${name}`);
      await clearServerDatabase(url);
    }
    await restoreServer(url, databaseFile, manifest.databaseTool);
    log(`Database: restored into ${name}`);
    await restoreMedia(mediaFile, config.mediaDir, mediaEmpty, log);
    return { manifest, counts: await serverCounts(url) };
  }

  const pgliteDir = pgliteDirOf(config);
  let release: () => void;
  try {
    // Held to the end: no server may start on the folder half-restored.
    release = lockEmbeddedDatabase(pgliteDir);
  } catch (error) {
    if (error instanceof DatabaseInUseError) throw new BackupError(`Cannot restore into ${config.dataDir}: ${error.message}`);
    throw error;
  }
  try {
    const databaseEmpty = await isEmptyFolder(pgliteDir);
    const mediaEmpty = await isEmptyFolder(config.mediaDir);
    if ((!databaseEmpty || !mediaEmpty) && !options.force) {
      throw refuseNotEmpty(
        [...(databaseEmpty ? [] : [`the embedded database ${pgliteDir}`]), ...(mediaEmpty ? [] : [`MEDIA_DIR ${config.mediaDir}`])],
        'a fresh DATA_DIR (and MEDIA_DIR)',
      );
    }
    if (!databaseEmpty) {
      log(`--force: removing the embedded database in ${pgliteDir}`);
      await fs.rm(pgliteDir, { recursive: true, force: true });
    }
    await fs.mkdir(pgliteDir, { recursive: true });
    // PGlite's own inverse of dumpDataDir: unpacks the tarball into the empty folder and opens it.
    const db = await PGlite.create({ dataDir: pgliteDir, loadDataDir: new Blob([await fs.readFile(databaseFile)]) });
    let counts: Record<string, number> | null;
    try {
      counts = await countsOf((sql) => db.query<Record<string, number>>(sql));
    } finally {
      await db.close();
    }
    // Unpacked with the archive's modes: owner-only, as the rest of DATA_DIR.
    tightenFiles(pgliteDir);
    log(`Database: restored into ${pgliteDir}`);
    await restoreMedia(mediaFile, config.mediaDir, mediaEmpty, log);
    return { manifest, counts };
  } finally {
    release();
  }
}

async function restoreMedia(file: string, mediaDir: string, empty: boolean, log: (line: string) => void): Promise<void> {
  if (!empty) {
    log(`--force: removing what MEDIA_DIR ${mediaDir} holds`);
    await emptyFolder(mediaDir);
  }
  await extractMedia(file, mediaDir);
  log(`Media: restored into ${mediaDir}`);
}
