// What a watch page needs to know of a video's HLS playlists to preload the start of its stream (README › Web
// client › "First frame"): the variant hls.js starts with, and the segment it asks for first. Pure functions over
// the playlists' text; StorageService reads the files.

/** A file of the playlist's own folder: what the ingest writes, and what the master's signed link covers. */
const PLAIN_NAME = /^[\w-]+(?:\.[\w-]+)*$/;

/** The lines of a playlist that are not tags, comments or blank: its URIs, in order. */
const uris = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

/**
 * The first variant a master playlist names (the one hls.js starts with), when it is a plain file name of the
 * master's folder; null otherwise (a path elsewhere, an absolute or remote URI, none).
 */
export function firstVariantName(master: string): string | null {
  const name = uris(master)[0] ?? '';
  return PLAIN_NAME.test(name) ? name : null;
}

/** A media segment of a variant playlist: its file name and when it ends (seconds from the start). */
export interface MediaSegment {
  name: string;
  start: number;
  end: number;
}

/**
 * A variant playlist's media segments, or null when a segment cannot be fetched as a whole file of the
 * playlist's folder with no other request first: a URI elsewhere, byte ranges, an initialisation section
 * (fMP4) or encryption keys would each make the first request hls.js sends another one than a preload of the file.
 */
export function mediaSegments(variant: string): MediaSegment[] | null {
  const segments: MediaSegment[] = [];
  let duration: number | null = null;
  let time = 0;
  for (const raw of variant.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (/^#EXT-X-(?:BYTERANGE|MAP|KEY|PART)\b/.test(line)) return null;
    const extinf = /^#EXTINF:\s*([\d.]+)/.exec(line);
    if (extinf) {
      duration = Number.parseFloat(extinf[1]);
      continue;
    }
    if (line.startsWith('#')) continue;
    if (duration === null || !Number.isFinite(duration) || !PLAIN_NAME.test(line)) return null;
    segments.push({ name: line, start: time, end: time + duration });
    time += duration;
    duration = null;
  }
  return segments;
}

/**
 * The segment hls.js asks for first when it starts at `position` (seconds; 0 from the start): the one the position
 * falls in, as hls.js's own fragment look-up takes an exact match. Null past the end.
 */
export function segmentAt(segments: MediaSegment[], position: number): MediaSegment | null {
  const at = Math.max(0, position);
  return segments.find((segment) => segment.start <= at && at < segment.end) ?? null;
}
