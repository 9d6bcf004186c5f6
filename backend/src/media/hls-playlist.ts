// What a watch page needs to know of a video's HLS playlists to preload the start of its stream (docs/web-client.md ›
// "First frame"): the variant hls.js starts with, and the segment it asks for first. And what the
// playlists declare (docs/media.md): bit rates measured on the segments, the lowest EXT-X-VERSION. Pure functions
// over the playlists' text and the segments' sizes; StorageService reads the files (hls-measure.ts).

/** A file of the playlist's own folder: what the ingest writes, and what the master's signed link covers. */
const PLAIN_NAME = /^[\w-]+(?:\.[\w-]+)*$/;

/** A playlist's lines, trimmed. */
const lines = (text: string) => text.split(/\r?\n/).map((line) => line.trim());

/** A line that is no tag, comment or blank: a URI. */
const isUri = (line: string) => line !== '' && !line.startsWith('#');

/** The URIs of a playlist, in order. */
const uris = (text: string) => lines(text).filter(isUri);

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
  /** The file name of the AES-128 key it is sealed with (a file of the same folder), when it is sealed. */
  key?: string;
}

/**
 * A variant playlist's media segments, or null when a segment cannot be fetched as a whole file of the
 * playlist's folder with no other request first than its key's: a URI elsewhere, byte ranges, an initialisation
 * section (fMP4), or a key that is not AES-128 from a file of the same folder would each make the first request
 * hls.js sends another one than a preload of the file. A sealed segment names its key (docs/media.md › Encrypted HLS).
 */
export function mediaSegments(variant: string): MediaSegment[] | null {
  const segments: MediaSegment[] = [];
  let duration: number | null = null;
  let key: string | undefined;
  let time = 0;
  for (const raw of variant.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (/^#EXT-X-(?:BYTERANGE|MAP|PART)\b/.test(line)) return null;
    if (line.startsWith('#EXT-X-KEY:')) {
      const method = attributeValue(line, 'METHOD');
      const uri = attributeValue(line, 'URI') ?? '';
      if (method === 'NONE') key = undefined;
      else if (method === 'AES-128' && PLAIN_NAME.test(uri) && attributeOf(line, 'KEYFORMAT') === undefined) key = uri;
      else return null;
      continue;
    }
    const extinf = /^#EXTINF:\s*([\d.]+)/.exec(line);
    if (extinf) {
      duration = Number.parseFloat(extinf[1]);
      continue;
    }
    if (line.startsWith('#')) continue;
    if (duration === null || !Number.isFinite(duration) || !PLAIN_NAME.test(line)) return null;
    segments.push({ name: line, start: time, end: time + duration, ...(key ? { key } : {}) });
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

// --- What a playlist declares (docs/media.md) ---------------------------------------------------------------------

/** A media segment as RFC 8216 measures it: its size on disk and its EXTINF duration. */
export interface SegmentSize {
  bytes: number;
  seconds: number;
}

/** What a variant stream's EXT-X-STREAM-INF declares of its bit rate, in bits per second (rounded up). */
export interface VariantBitRates {
  bandwidth: number;
  averageBandwidth: number;
}

/** A media playlist's EXT-X-TARGETDURATION, in seconds; null when it declares none. */
export function targetDurationOf(variant: string): number | null {
  const match = /^#EXT-X-TARGETDURATION:\s*(\d+)\s*$/m.exec(variant);
  return match ? Number(match[1]) : null;
}

const bitRateOf = (bytes: number, seconds: number) => (seconds > 0 ? (bytes * 8) / seconds : 0);

/**
 * RFC 8216 §4.1: "the sum of the sizes (in bits) of every Media Segment in the Media Playlist, divided by the
 * Media Playlist duration" (container overhead included).
 */
export function averageSegmentBitRate(segments: readonly SegmentSize[]): number {
  return bitRateOf(
    segments.reduce((sum, s) => sum + s.bytes, 0),
    segments.reduce((sum, s) => sum + s.seconds, 0),
  );
}

/** Durations add up in binary floating point: 0.6 + 0.7 + 0.7 s is 1.9999999999999998, still half of 4 s. */
const DURATION_SLACK = 1e-6;

/**
 * RFC 8216 §4.1: "the largest bit rate of any contiguous set of segments whose total duration is between 0.5
 * and 1.5 times the target duration", a set's bit rate being its sizes' sum over its durations' sum. A short last
 * segment (under half the target) is no set of its own: it counts only with the segment before it (but see
 * variantBitRates). A playlist shorter than half its target duration has no such set; its one set is then the whole.
 */
export function peakSegmentBitRate(segments: readonly SegmentSize[], targetDuration: number): number {
  const shortest = 0.5 * targetDuration - DURATION_SLACK;
  const longest = 1.5 * targetDuration + DURATION_SLACK;
  let peak: number | null = null;
  for (let first = 0; first < segments.length; first++) {
    let bytes = 0;
    let seconds = 0;
    for (let last = first; last < segments.length; last++) {
      bytes += segments[last].bytes;
      seconds += segments[last].seconds;
      if (seconds > longest) break;
      if (seconds >= shortest) peak = Math.max(peak ?? 0, bitRateOf(bytes, seconds));
    }
  }
  return peak ?? averageSegmentBitRate(segments);
}

/** The highest bit rate of any one segment, whatever its duration. */
export function largestSegmentBitRate(segments: readonly SegmentSize[]): number {
  return segments.reduce((largest, s) => Math.max(largest, bitRateOf(s.bytes, s.seconds)), 0);
}

/**
 * BANDWIDTH and AVERAGE-BANDWIDTH of a variant stream of one media playlist, rounded up to whole bits per second.
 * RFC 8216 §4.3.4.2 wants BANDWIDTH to be the peak segment bit rate (peakSegmentBitRate) once every segment
 * exists; here it is also never under any one segment's own bit rate, so that a short last segment (a second of
 * video after the last 4 s, with a keyframe of its own) cannot make it look low to a player or a validator that
 * measures segment by segment. With segments as long as the target duration, each is an RFC set of its own and a
 * set only averages its segments: the two differ only when the last segment is under half the target duration
 * and the densest. AVERAGE-BANDWIDTH is averageSegmentBitRate.
 */
export function variantBitRates(segments: readonly SegmentSize[], targetDuration: number): VariantBitRates {
  const average = averageSegmentBitRate(segments);
  return {
    bandwidth: Math.ceil(Math.max(peakSegmentBitRate(segments, targetDuration), largestSegmentBitRate(segments), average)),
    averageBandwidth: Math.ceil(average),
  };
}

/** The tags RFC 8216 defines (§4.3): a playlist with any other is not one this code can vouch for. */
const RFC_8216_TAGS = new Set([
  'EXTM3U', 'EXT-X-VERSION', 'EXTINF', 'EXT-X-BYTERANGE', 'EXT-X-DISCONTINUITY', 'EXT-X-KEY', 'EXT-X-MAP',
  'EXT-X-PROGRAM-DATE-TIME', 'EXT-X-DATERANGE', 'EXT-X-TARGETDURATION', 'EXT-X-MEDIA-SEQUENCE',
  'EXT-X-DISCONTINUITY-SEQUENCE', 'EXT-X-ENDLIST', 'EXT-X-PLAYLIST-TYPE', 'EXT-X-I-FRAMES-ONLY', 'EXT-X-MEDIA',
  'EXT-X-STREAM-INF', 'EXT-X-I-FRAME-STREAM-INF', 'EXT-X-SESSION-DATA', 'EXT-X-SESSION-KEY',
  'EXT-X-INDEPENDENT-SEGMENTS', 'EXT-X-START',
]);

const tagOf = (line: string) => /^#(EXT[\w-]*)/.exec(line)?.[1] ?? null;

/** An attribute list (RFC 8216 §4.2) as ordered name/value pairs, quoted values kept with their quotes. */
export function parseAttributes(list: string): [string, string][] {
  return [...list.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)].map((m) => [m[1], m[2]]);
}

const attributeOf = (line: string, name: string) =>
  parseAttributes(line.slice(line.indexOf(':') + 1)).find(([key]) => key === name)?.[1];

/** A tag's attribute as its value reads, without the quotes of a quoted string (`URI="k.key"` → `k.key`). */
export const attributeValue = (line: string, name: string): string | undefined => attributeOf(line, name)?.replace(/^"(.*)"$/, '$1');

/**
 * The lowest EXT-X-VERSION a playlist's features need (RFC 8216 §7), or null when it uses a tag RFC 8216 does
 * not define (a later draft's, a vendor's), whose version this cannot tell.
 * - 2: the IV attribute of EXT-X-KEY;
 * - 3: floating-point EXTINF durations;
 * - 4: EXT-X-BYTERANGE, EXT-X-I-FRAMES-ONLY;
 * - 5: EXT-X-KEY with METHOD=SAMPLE-AES, KEYFORMAT or KEYFORMATVERSIONS; EXT-X-MAP in an I-frame playlist;
 * - 6: EXT-X-MAP in a media playlist without EXT-X-I-FRAMES-ONLY;
 * - 7: "SERVICE" values of EXT-X-MEDIA's INSTREAM-ID.
 * Everything else a master playlist holds (EXT-X-STREAM-INF with BANDWIDTH, AVERAGE-BANDWIDTH, RESOLUTION,
 * FRAME-RATE, CODECS; EXT-X-INDEPENDENT-SEGMENTS) and a media playlist's EXT-X-PLAYLIST-TYPE, -TARGETDURATION,
 * -MEDIA-SEQUENCE and -ENDLIST are version 1.
 */
export function requiredVersion(playlist: string): number | null {
  const all = lines(playlist);
  const iFramesOnly = all.includes('#EXT-X-I-FRAMES-ONLY');
  let version = 1;
  const need = (v: number) => (version = Math.max(version, v));
  for (const line of all) {
    const tag = tagOf(line);
    if (tag === null) continue;
    if (!RFC_8216_TAGS.has(tag)) return null;
    if (tag === 'EXTINF' && /^#EXTINF:\s*[^,]*[.eE]/.test(line)) need(3);
    if (tag === 'EXT-X-BYTERANGE' || tag === 'EXT-X-I-FRAMES-ONLY') need(4);
    if (tag === 'EXT-X-MAP') need(iFramesOnly ? 5 : 6);
    if (tag === 'EXT-X-KEY') {
      if (attributeOf(line, 'IV') !== undefined) need(2);
      if (/^SAMPLE-AES/.test(attributeOf(line, 'METHOD') ?? '') || attributeOf(line, 'KEYFORMAT') !== undefined
        || attributeOf(line, 'KEYFORMATVERSIONS') !== undefined) need(5);
    }
    if (tag === 'EXT-X-MEDIA' && /^"?SERVICE/.test(attributeOf(line, 'INSTREAM-ID') ?? '')) need(7);
  }
  return version;
}

/** The EXT-X-VERSION a playlist declares; 1 when it declares none (RFC 8216 §4.3.1.2). */
export function declaredVersion(playlist: string): number {
  const match = /^#EXT-X-VERSION:\s*(\d+)\s*$/m.exec(playlist);
  return match ? Number(match[1]) : 1;
}

/**
 * The playlist declaring the lowest version its features need, as the line after #EXTM3U; unchanged when that
 * cannot be told (requiredVersion is null) or the text is no playlist.
 */
export function withRequiredVersion(playlist: string): string {
  const version = requiredVersion(playlist);
  const all = playlist.split(/\r?\n/);
  if (version === null || all[0]?.trim() !== '#EXTM3U') return playlist;
  const rest = all.slice(1).filter((line) => !/^#EXT-X-VERSION:/.test(line.trim()));
  return [all[0], `#EXT-X-VERSION:${version}`, ...rest].join('\n');
}

/** What the rewrite may restate of a variant stream in its master playlist. */
export interface VariantFacts extends VariantBitRates {
  /** The decoded picture, `WIDTHxHEIGHT`; left as declared when absent. */
  resolution?: string;
}

/** A variant stream of a master playlist: its EXT-X-STREAM-INF line (index among the text's lines), attributes, URI. */
export interface VariantStream {
  line: number;
  attributes: [string, string][];
  uri: string;
}

/** The variant streams a master playlist names (each EXT-X-STREAM-INF and the URI line after it), in order. */
export function variantStreams(master: string): VariantStream[] {
  const all = lines(master);
  const found: VariantStream[] = [];
  all.forEach((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
    const uri = all.slice(i + 1).find(isUri);
    if (uri !== undefined) found.push({ line: i, attributes: parseAttributes(line.slice('#EXT-X-STREAM-INF:'.length)), uri });
  });
  return found;
}

/** The variant playlists a master names (EXT-X-STREAM-INF URIs), in order. */
export const variantUris = (master: string): string[] => variantStreams(master).map((stream) => stream.uri);

/**
 * A master playlist with each variant's BANDWIDTH and AVERAGE-BANDWIDTH (and RESOLUTION, when given) restated
 * from `factsOf(uri)`, every other attribute and line as it was; a variant `factsOf` knows nothing of is left
 * alone. AVERAGE-BANDWIDTH goes after BANDWIDTH when it was missing. The version is not touched here.
 */
export function restateMaster(master: string, factsOf: (uri: string) => VariantFacts | undefined): string {
  const all = master.split(/\r?\n/);
  for (const { line, attributes, uri } of variantStreams(master)) {
    const facts = factsOf(uri);
    if (!facts) continue;
    const set = (name: string, value: string, after: string) => {
      const at = attributes.findIndex(([key]) => key === name);
      if (at >= 0) attributes[at][1] = value;
      else attributes.splice(attributes.findIndex(([key]) => key === after) + 1, 0, [name, value]);
    };
    set('BANDWIDTH', String(facts.bandwidth), '');
    set('AVERAGE-BANDWIDTH', String(facts.averageBandwidth), 'BANDWIDTH');
    if (facts.resolution) set('RESOLUTION', facts.resolution, 'AVERAGE-BANDWIDTH');
    all[line] = `#EXT-X-STREAM-INF:${attributes.map(([key, value]) => `${key}=${value}`).join(',')}`;
  }
  return all.join('\n');
}
