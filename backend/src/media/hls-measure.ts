import {
  mediaSegments, type SegmentSize, targetDurationOf, type VariantBitRates, variantBitRates, withRequiredVersion,
} from './hls-playlist';

/** A video's HLS folder to measure: a workspace's local files, or the store's objects (by name in the folder). */
export interface HlsFolder {
  readText(name: string): Promise<string>;
  sizeOf(name: string): Promise<number>;
}

/** A variant playlist whose segments cannot be measured as plain files of its folder. */
export class UnmeasurableError extends Error {}

/** A variant (media) playlist of a video's folder, measured on the segments on disk. */
export interface MeasuredVariant {
  /** The playlist's name in the folder (`240p.m3u8`). */
  uri: string;
  /** Its text as read. */
  text: string;
  /** Its text as it should read: the same, declaring the lowest EXT-X-VERSION it needs. */
  honest: string;
  segments: SegmentSize[];
  rates: VariantBitRates;
  /** The first segment's name in the folder, to ask ffprobe what the rendition decodes to. */
  firstSegment: string;
}

/**
 * Reads `folder/uri`, stats each segment it names and works out its BANDWIDTH and AVERAGE-BANDWIDTH (RFC 8216
 * §4.1, hls-playlist.ts › variantBitRates). Writes nothing. UnmeasurableError when the playlist has no segments
 * or target duration, or names segments that are not plain files of its folder (byte ranges, fMP4); encrypted ones are measured as sent.
 */
export async function measureVariant(folder: HlsFolder, uri: string): Promise<MeasuredVariant> {
  const text = await folder.readText(uri);
  const listed = mediaSegments(text);
  const target = targetDurationOf(text);
  if (!listed || listed.length === 0) throw new UnmeasurableError(`${uri} names no segments that are plain files of its folder`);
  if (target === null) throw new UnmeasurableError(`${uri} declares no EXT-X-TARGETDURATION`);
  const segments: SegmentSize[] = [];
  for (const segment of listed) {
    segments.push({ bytes: await folder.sizeOf(segment.name), seconds: segment.end - segment.start });
  }
  return {
    uri,
    text,
    honest: withRequiredVersion(text),
    segments,
    rates: variantBitRates(segments, target),
    firstSegment: listed[0].name,
  };
}
