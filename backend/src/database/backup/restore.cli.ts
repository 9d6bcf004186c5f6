import 'reflect-metadata';
import { loadConfig } from '../../config/app-config';
import { parseRestoreArgs } from './cli-args';
import { restoreBackup } from './restore';

/**
 * `npm run restore -- <backup folder> [--force]`: into DATA_DIR (embedded) or DATABASE_URL (server) and MEDIA_DIR,
 * with the site stopped; refuses a target that is not empty unless --force.
 */
async function main(): Promise<void> {
  const args = parseRestoreArgs(process.argv.slice(2));
  if (!args.ok) {
    (args.help ? console.log : console.error)(args.message);
    process.exit(args.help ? 0 : 2);
  }
  const config = loadConfig();
  const started = Date.now();
  const { counts } = await restoreBackup(config, args.value.source, { force: args.value.force, log: (line) => console.log(line) });
  const summary = counts ? Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ') : 'no catalogue yet';
  console.log(`Restored (${summary}) in ${((Date.now() - started) / 1000).toFixed(1)} s. Start the site on it: npm start`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
