import { isSquare, type RenditionPicture } from './ffmpeg-args';
import type { FfmpegRunner } from './ffmpeg.runner';
import { measureVariant, type MeasuredVariant } from './hls-measure';
import {
  declaredVersion, requiredVersion, restateMaster, variantStreams, variantUris, withRequiredVersion,
} from './hls-playlist';
import type { StorageService } from './storage.service';

/** What only a re-encode changes, said wherever the rewrite meets it. */
export const SAR_NOTE =
  'a pixel shape is in the encoded video, not in a playlist: only a re-encode fixes it, which this command does not do (a video uploaded or imported again is encoded with square pixels)';

export interface RewriteOptions {
  /** Measure and report, write nothing. */
  dryRun?: boolean;
  /** Where the report's lines go. */
  log?: (line: string) => void;
}

export interface RewriteSummary {
  videos: number;
  rewritten: number;
  unchanged: number;
  /** Folders left alone: playlists this command cannot vouch for, or unreadable. */
  skipped: number;
  /** Renditions whose pixels are not square (a re-encode would be needed). */
  nonSquare: number;
}

/** A variant's EXT-X-STREAM-INF attributes in a master playlist, by variant URI. */
const declaredAttributes = (master: string) =>
  new Map(variantStreams(master).map(({ uri, attributes }) => [uri, new Map(attributes)]));

const change = (name: string, before: string | number | undefined, after: string | number) =>
  String(before) === String(after) ? null : `${name} ${before ?? '(none)'} → ${after}`;

/**
 * `npm run media:playlists`: every video folder under MEDIA_DIR/videos with a master playlist gets its playlists
 * restated from the segments on disk, without a re-encode: BANDWIDTH and AVERAGE-BANDWIDTH measured (RFC 8216
 * §4.1, §4.3.4.2), RESOLUTION as ffprobe decodes the rendition, and each playlist's EXT-X-VERSION the lowest its
 * features need (§7). Each file is written to a temporary name and renamed into place, media playlists before
 * their master; a file that would not change is not written, so a second run writes nothing. A folder another
 * ingest replaced meanwhile is left to that ingest. Renditions with non-square pixels are reported (SAR_NOTE).
 */
export async function rewritePlaylists(
  storage: StorageService,
  ffmpeg: Pick<FfmpegRunner, 'probeSegment'>,
  options: RewriteOptions = {},
): Promise<RewriteSummary> {
  // A local folder for the segments ffprobe reads (fetched from a bucket).
  return storage.withScratch((scratch) => rewriteIn(storage, ffmpeg, scratch, options));
}

async function rewriteIn(storage: StorageService, ffmpeg: Pick<FfmpegRunner, 'probeSegment'>, scratch: string, options: RewriteOptions): Promise<RewriteSummary> {
  const log = options.log ?? ((line: string) => console.log(line));
  const summary: RewriteSummary = { videos: 0, rewritten: 0, unchanged: 0, skipped: 0, nonSquare: 0 };
  const { store } = storage;
  for await (const stem of storage.hlsStems()) {
    summary.videos++;
    const where = `videos/${stem}`;
    const keyOf = (name: string) => `${where}/${name}`;
    const folder = {
      readText: async (name: string) => (await store.readBytes(keyOf(name))).toString('utf8'),
      sizeOf: async (name: string) => {
        const stat = await store.stat(keyOf(name));
        if (!stat) throw new Error(`${name} is missing`);
        return stat.size;
      },
    };
    try {
      // The master's version: an ingest publishing the folder again writes its master last.
      const identity = (await store.stat(keyOf('index.m3u8')))?.version;
      const master = await folder.readText('index.m3u8');
      const uris = variantUris(master);
      if (uris.length === 0 || requiredVersion(master) === null) {
        summary.skipped++;
        log(`${where}: skipped, its master playlist is not one this command writes (no variants, or tags RFC 8216 does not define)`);
        continue;
      }
      const variants: MeasuredVariant[] = [];
      const pictures = new Map<string, RenditionPicture | null>();
      for (const uri of uris) {
        const variant = await measureVariant(folder, uri);
        if (requiredVersion(variant.text) === null) throw new Error(`${uri} has tags RFC 8216 does not define`);
        variants.push(variant);
        const segment = await storage.localCopy(keyOf(variant.firstSegment), scratch).catch(() => null);
        pictures.set(uri, segment ? await ffmpeg.probeSegment(segment).catch(() => null) : null);
        if (segment && store.driver === 's3') await storage.removeFile(segment);
      }

      const honestMaster = withRequiredVersion(
        restateMaster(master, (uri) => {
          const variant = variants.find((v) => v.uri === uri);
          const picture = pictures.get(uri);
          return variant && { ...variant.rates, resolution: picture ? `${picture.width}x${picture.height}` : undefined };
        }),
      );

      const declared = declaredAttributes(master);
      const changes: string[] = [];
      for (const variant of variants) {
        const was = declared.get(variant.uri);
        const picture = pictures.get(variant.uri);
        const said = [
          change('BANDWIDTH', was?.get('BANDWIDTH'), variant.rates.bandwidth),
          change('AVERAGE-BANDWIDTH', was?.get('AVERAGE-BANDWIDTH'), variant.rates.averageBandwidth),
          picture ? change('RESOLUTION', was?.get('RESOLUTION'), `${picture.width}x${picture.height}`) : null,
          change('EXT-X-VERSION', declaredVersion(variant.text), declaredVersion(variant.honest)),
        ].filter((c) => c !== null);
        if (said.length) changes.push(`${variant.uri}: ${said.join(', ')}`);
      }
      const masterChange = change('EXT-X-VERSION', declaredVersion(master), declaredVersion(honestMaster));
      if (masterChange) changes.push(`index.m3u8: ${masterChange}`);

      const toWrite = [
        ...variants.filter((v) => v.honest !== v.text).map((v) => ({ key: keyOf(v.uri), text: v.honest })),
        ...(honestMaster !== master ? [{ key: keyOf('index.m3u8'), text: honestMaster }] : []),
      ];
      if (toWrite.length === 0) {
        summary.unchanged++;
        log(`${where}: unchanged, its playlists already say what the segments measure`);
      } else if (options.dryRun) {
        summary.rewritten++;
        log(`${where}: would rewrite (${changes.join('; ') || 'layout only'})`);
      } else if ((await store.stat(keyOf('index.m3u8')))?.version !== identity) {
        summary.skipped++;
        log(`${where}: skipped, the folder was replaced while it was measured (an ingest published it again)`);
        continue;
      } else {
        for (const { key, text } of toWrite) await store.write(key, text);
        summary.rewritten++;
        log(`${where}: rewritten (${changes.join('; ') || 'layout only'})`);
      }

      for (const [uri, picture] of pictures) {
        if (picture && !isSquare(picture)) {
          summary.nonSquare++;
          log(`${where}/${uri}: pixels are not square (sample aspect ratio ${picture.sampleAspectRatio}, ${picture.width}x${picture.height}): only a re-encode fixes that`);
        }
      }
    } catch (error) {
      summary.skipped++;
      log(`${where}: skipped, ${(error as Error).message}`);
    }
  }
  return summary;
}

/** The report's last line. */
export function summaryLine(summary: RewriteSummary, dryRun = false): string {
  const parts = [
    `${summary.videos} video${summary.videos === 1 ? '' : 's'}: ${summary.rewritten} ${dryRun ? 'to rewrite' : 'rewritten'}, ${summary.unchanged} unchanged, ${summary.skipped} skipped.`,
  ];
  parts.push(summary.nonSquare > 0
    ? `${summary.nonSquare} rendition${summary.nonSquare === 1 ? ' has' : 's have'} non-square pixels: ${SAR_NOTE}.`
    : 'Every rendition read has square pixels.');
  return parts.join(' ');
}
