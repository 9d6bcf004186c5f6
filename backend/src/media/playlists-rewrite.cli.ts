import { ConfigError, loadConfig } from '../config/app-config';
import { FfmpegRunner } from './ffmpeg.runner';
import { rewritePlaylists, summaryLine } from './playlists-rewrite';
import { StorageService } from './storage.service';

const USAGE = 'Usage: npm run media:playlists [-- --dry-run]';

/**
 * `npm run media:playlists`: rewrites the HLS playlists of every video under MEDIA_DIR/videos from the segments
 * on disk (measured BANDWIDTH and AVERAGE-BANDWIDTH, decoded RESOLUTION, the lowest EXT-X-VERSION), without
 * re-encoding; `--dry-run` reports without writing. It reads no database and may run beside the server: each
 * file is replaced by a rename. Pixel shape (SAR) is no playlist matter: it reports renditions with non-square
 * pixels, which only a re-encode fixes. docs/media.md.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--dry-run');
  if (unknown.length) {
    console.error(`${USAGE}\nUnknown argument: ${unknown.join(' ')}`);
    process.exit(2);
  }
  const dryRun = args.includes('--dry-run');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  console.log(`${dryRun ? 'Measuring (dry run, nothing is written)' : 'Rewriting'} the playlists under ${config.mediaDir}/videos`);
  const summary = await rewritePlaylists(new StorageService(config), new FfmpegRunner(config), { dryRun });
  console.log(summaryLine(summary, dryRun));
}

if (require.main === module) void main();
