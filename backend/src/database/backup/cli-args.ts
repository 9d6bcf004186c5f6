/** The command lines of `npm run backup` and `npm run restore`. */
export const BACKUP_USAGE = 'Usage: npm run backup [-- --out <new folder>]   (default: DATA_DIR/backups/hunktube-backup-<time>)';
export const RESTORE_USAGE = 'Usage: npm run restore -- <backup folder> [--force]   (--force replaces a database and media that are not empty)';

export type Parsed<T> = { ok: true; value: T } | { ok: false; help: boolean; message: string };

export function parseBackupArgs(argv: string[]): Parsed<{ out: string | null }> {
  let out: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { ok: false, help: true, message: BACKUP_USAGE };
    if (arg === '--out' && argv[i + 1] && !argv[i + 1].startsWith('--')) out = argv[++i];
    else if (arg.startsWith('--out=') && arg.length > 6) out = arg.slice(6);
    else return { ok: false, help: false, message: `Unknown or incomplete argument: ${arg}\n${BACKUP_USAGE}` };
  }
  return { ok: true, value: { out } };
}

export function parseRestoreArgs(argv: string[]): Parsed<{ source: string; force: boolean }> {
  let source: string | null = null;
  let force = false;
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') return { ok: false, help: true, message: RESTORE_USAGE };
    if (arg === '--force') force = true;
    else if (!arg.startsWith('-') && source === null) source = arg;
    else return { ok: false, help: false, message: `Unknown argument: ${arg}\n${RESTORE_USAGE}` };
  }
  if (source === null) return { ok: false, help: false, message: `Name the backup folder to restore.\n${RESTORE_USAGE}` };
  return { ok: true, value: { source, force } };
}
