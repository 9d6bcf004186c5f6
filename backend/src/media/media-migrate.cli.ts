import 'reflect-metadata';
import { openMediaCommandContext } from './media-context';
import { progressBar } from './media-import.cli';
import { MediaMigration, type MigrationProgress, type MigrationReport } from './media-migration.service';
import { parseMigrateArgs } from './media-migrate-args';

const USAGE = 'Usage: npm run media:migrate -- --to s3|disk [--dry-run] [--keep] [--grace <seconds>]';

const size = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`);

/** One line of progress: the bar by bytes, the videos, and the one being copied. */
export function progressLine(p: MigrationProgress): string {
  const percent = p.bytes ? (p.bytesDone / p.bytes) * 100 : 100;
  const doing = p.stem === null ? 'removing the old copies' : p.stem;
  return `${progressBar(percent)} ${p.videosDone}/${p.videos} videos, ${size(p.bytesDone)} of ${size(p.bytes)}  ${doing}`;
}

export function summary(r: MigrationReport): string[] {
  const lines = [
    `${r.moved.length} video(s) moved to the ${r.to === 's3' ? 'bucket' : 'disk store'}: ${r.copied} object(s) copied (${size(r.bytes)}), ${r.alreadyThere} already there, every one verified by size and SHA-256`,
    `${r.sources} source upload(s) copied; ${r.removed} old object(s) removed`,
  ];
  for (const f of r.failed) lines.push(`not moved: ${f.stem}: ${f.error}`);
  return lines;
}

/**
 * `npm run media:migrate -- --to s3|disk`: moves the media between the disk and the bucket while the site serves
 * (MediaMigration; docs/operating.md › "Moving media"). Killed, it resumes where it stopped when run again.
 * On the embedded database, stop the server first (PGlite belongs to one process at a time).
 */
async function main(): Promise<void> {
  const args = parseMigrateArgs(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    process.exit(2);
  }
  const app = await openMediaCommandContext();
  const tty = process.stderr.isTTY;
  let lastDone = -1;
  let lastDrawn = 0;
  try {
    const report = await app.get(MediaMigration).run({
      ...args,
      onProgress: (p) => {
        if (args.dryRun) return void console.log(`Would move ${p.videos} video(s), ${size(p.bytes)} with the source uploads (dry run: nothing is written)`);
        if (tty && (Date.now() - lastDrawn > 200 || p.videosDone === p.videos)) {
          lastDrawn = Date.now();
          process.stderr.write(`\r${progressLine(p)}\x1b[K`);
        } else if (!tty && p.videosDone !== lastDone) {
          lastDone = p.videosDone;
          process.stderr.write(`${progressLine(p)}\n`);
        }
      },
    });
    if (tty) process.stderr.write('\n');
    if (!args.dryRun) for (const line of summary(report)) console.log(line);
    if (report.failed.length) process.exitCode = 1;
  } catch (error) {
    console.error(`\n${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await app.close();
  }
}

if (require.main === module) void main();
