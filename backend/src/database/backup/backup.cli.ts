import 'reflect-metadata';
import { loadConfig } from '../../config/app-config';
import { createBackup } from './backup';
import { parseBackupArgs } from './cli-args';

/**
 * `npm run backup [-- --out <folder>]`: the database (embedded: a snapshot from the running server, or taken
 * directly when none runs; server: pg_dump) and the media store, into a new folder with a manifest.
 */
async function main(): Promise<void> {
  const args = parseBackupArgs(process.argv.slice(2));
  if (!args.ok) {
    (args.help ? console.log : console.error)(args.message);
    process.exit(args.help ? 0 : 2);
  }
  const config = loadConfig();
  const started = Date.now();
  const { folder, manifest } = await createBackup(config, { out: args.value.out, log: (line) => console.log(line) });
  const total = (manifest.database.bytes + manifest.media.bytes) / 1024 ** 2;
  console.log(`Backup written to ${folder} (${total.toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
