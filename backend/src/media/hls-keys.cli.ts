import 'reflect-metadata';
import { stemOf } from '../common/media-paths';
import { VideosRepository } from '../videos/videos.repository';
import { HlsRekeyService, type RekeyResult } from './hls-rekey.service';
import { progressBar } from './media-import.cli';
import { openMediaCommandContext } from './media-context';

const USAGE = 'Usage: npm run media:rekey -- <video id>...   |   npm run media:encrypt [-- --dry-run]';

const said = (r: RekeyResult) =>
  `videos/${r.stem}: ${r.segments} segment(s) ${r.wasClear ? 'encrypted' : 're-keyed'} under key ${r.keyId}; the old ones are removed in ${Math.round(r.sweepAfterSeconds / 60)} min, when the links given before have expired`;

/**
 * `npm run media:rekey -- <id>...`: gives each video a new key and new segments. `npm run media:encrypt`: seals
 * every published video whose segments are in the clear (made before HLS_ENCRYPTION, or with it off). Both work
 * on the live store beside the running site (the container stack's PostgreSQL); on the embedded database, stop
 * the server first, as for media:import. docs/media.md › Encrypted HLS.
 */
async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const ids = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const dryRun = args.includes('--dry-run');
  const unknown = args.filter((a) => !/^\d+$/.test(a) && a !== '--dry-run');
  if ((command !== 'rekey' && command !== 'encrypt') || unknown.length || (command === 'rekey' && (ids.length === 0 || dryRun)) || (command === 'encrypt' && ids.length)) {
    console.error(USAGE);
    process.exit(2);
  }
  const app = await openMediaCommandContext();
  const rekeys = app.get(HlsRekeyService);
  try {
    if (command === 'rekey') {
      for (const id of ids) {
        const url = await app.get(VideosRepository).urlOf(id);
        if (!url) throw new Error(`Video ${id} does not exist`);
        console.log(said(await rekeys.rekey(stemOf(url))));
      }
      return;
    }
    const clear: string[] = [];
    for await (const stem of rekeys.stems()) if (!(await rekeys.isEncrypted(stem).catch(() => true))) clear.push(stem);
    console.log(`${clear.length} video folder(s) in the clear${dryRun ? ' (dry run: nothing is written)' : ''}`);
    if (dryRun) return;
    let done = 0;
    for (const stem of clear) {
      try {
        const result = await rekeys.rekey(stem);
        process.stderr.write(`\r${progressBar((++done / clear.length) * 100)} `);
        console.log(`\n${said(result)}`);
      } catch (error) {
        process.exitCode = 1;
        console.error(`\nvideos/${stem}: not encrypted: ${(error as Error).message}`);
      }
    }
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  } finally {
    await app.close();
  }
}

if (require.main === module) void main();
