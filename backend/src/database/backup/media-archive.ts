import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BackupError } from './backup-error';
import { runTool } from './files';
import type { StoredFile } from './manifest';

/**
 * What the media archive leaves out: work in progress (an ingest's temporary folders, uploads still arriving,
 * files being written under a temporary name: an unfinished job is redone after a restore) and anything else of
 * ours that lives inside MEDIA_DIR when it is set to hold them (the embedded database, the backup being written).
 */
export function mediaExcludes(mediaDir: string, alsoLeaveOut: string[]): string[] {
  const inside = alsoLeaveOut
    .map((p) => path.relative(path.resolve(mediaDir), path.resolve(p)))
    .filter((rel) => rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel))
    .map((rel) => `./${rel.split(path.sep).join('/')}`);
  return ['./videos/.incoming', './thumbs/.incoming', './sources/.uploads', '*.tmp', ...inside];
}

/** GNU tar: the store's tree as it is, to stdout; files that change or vanish while it reads are not errors. */
export function mediaTarArgs(mediaDir: string, excludes: string[]): string[] {
  return [
    '--create',
    '--file=-',
    `--directory=${mediaDir}`,
    '--ignore-failed-read',
    '--warning=no-file-changed',
    '--warning=no-file-removed',
    ...excludes.map((e) => `--exclude=${e}`),
    '.',
  ];
}

const TAR_MISSING = 'tar was not found on the PATH: install GNU tar (Debian and Ubuntu: apt-get install tar).';

/**
 * Archives the media store into `file` (uncompressed: video segments and images are compressed already). A store
 * that does not exist yet archives as empty. Answers the archive's size and hash, and whether files changed while
 * tar read them (a transcode finishing meanwhile; its job is in the database dump taken just before).
 */
export async function archiveMedia(mediaDir: string, file: string, excludes: string[]): Promise<Omit<StoredFile, 'file'> & { changed: boolean }> {
  const args = existsSync(mediaDir) ? mediaTarArgs(mediaDir, excludes) : ['--create', '--file=-', '--files-from=/dev/null'];
  const run = await runTool('tar', args, { outputFile: file, missingHint: TAR_MISSING });
  // GNU tar's status 1 on --create means only "some files changed while being read".
  if (run.code !== 0 && run.code !== 1) throw new BackupError(`tar could not archive the media store ${mediaDir}: ${run.stderr || `exit ${run.code}`}`);
  return { ...(run.output as Omit<StoredFile, 'file'>), changed: run.code === 1 };
}

/** Unpacks a media archive into `mediaDir` (made if missing). GNU tar refuses members with `..` or a leading `/`. */
export async function extractMedia(file: string, mediaDir: string): Promise<void> {
  await fs.mkdir(mediaDir, { recursive: true });
  const run = await runTool('tar', ['--extract', '--file=-', `--directory=${mediaDir}`, '--no-same-owner'], { inputFile: file, missingHint: TAR_MISSING });
  if (run.code !== 0) throw new BackupError(`tar could not unpack the media into ${mediaDir}: ${run.stderr || `exit ${run.code}`}`);
}
