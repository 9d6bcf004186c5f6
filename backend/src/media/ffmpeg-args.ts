import { type VariantBitRates, withRequiredVersion } from './hls-playlist';
import { DEMUXERS, type VideoType } from './video-type';

/**
 * Pure builders of ffmpeg arguments and of the files written beside them (master playlist, storyboard VTT).
 * The runner executes them; nothing here touches a process or a file. ffmpeg is the 4.1 build of
 * @ffmpeg-installer: one rendition per run (its -var_stream_map writes an empty master), a GOP of exactly one
 * segment so that every segment starts on a keyframe. Every picture made has square pixels (docs/media.md).
 */

export const SEGMENT_SECONDS = 4;
/** H.264 Main profile, level 4.0, as the master playlist's CODECS announces. */
export const VIDEO_CODEC_TAG = 'avc1.4d4028';
export const AUDIO_CODEC_TAG = 'mp4a.40.2';

export interface Rendition {
  name: string;
  height: number;
  videoKbps: number;
  audioKbps: number;
}

export const LADDER: readonly Rendition[] = [
  { name: '240p', height: 240, videoKbps: 400, audioKbps: 64 },
  { name: '360p', height: 360, videoKbps: 800, audioKbps: 96 },
  { name: '480p', height: 480, videoKbps: 1400, audioKbps: 128 },
  { name: '720p', height: 720, videoKbps: 2800, audioKbps: 128 },
  { name: '1080p', height: 1080, videoKbps: 5000, audioKbps: 160 },
];

export interface ProbeResult {
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  hasAudio: boolean;
  /**
   * The source's sample (pixel) aspect ratio, width over height of a pixel: 1 for square pixels (also when
   * unknown), 32/27 for a 720×480 picture shown at 16:9. Absent is 1.
   */
  sampleAspectRatio?: number;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The renditions no taller than the source; a source under 240p gets one rendition at its own height. */
export function ladderFor(sourceHeight: number): Rendition[] {
  const fitting = LADDER.filter((r) => r.height <= sourceHeight);
  return fitting.length ? fitting : [{ ...LADDER[0], name: `${even(sourceHeight)}p`, height: even(sourceHeight) }];
}

/** The width the source is shown at, in square pixels: its stored width stretched by its pixel aspect ratio. */
export function displayWidth(source: Pick<ProbeResult, 'width' | 'sampleAspectRatio'>): number {
  return source.width * (source.sampleAspectRatio ?? 1);
}

/**
 * The even width of a picture `height` pixels tall, in square pixels, with the source's shape as shown. Paired
 * with `setsar=1`: ffmpeg's scale would otherwise keep the source's exact shape by making pixels a little
 * non-square (426×240 of 1280×720 gets a 640:639 pixel), and players show that picture at another size.
 */
export function widthFor(source: Pick<ProbeResult, 'width' | 'height' | 'sampleAspectRatio'>, height: number): number {
  return even((displayWidth(source) * height) / source.height);
}

/** An uploaded source to read: its path and the container its first bytes are (sniffed again at ingest). */
export interface SourceInput {
  path: string;
  type: VideoType;
}

/**
 * What an upload may be (docs/media.md, "Untrusted input"). 8K UHD in either orientation: no side over 8192 pixels
 * (H.264's and HEVC's largest levels), at most 7680×4320 pixels (a decoded frame is then ~50 MB; the ladder
 * stops at 1080p anyway). At most 4 hours and 16 streams (a video, its audio tracks and subtitles).
 */
export const INPUT_LIMITS = { maxSide: 8192, maxPixels: 7680 * 4320, maxDurationSeconds: 4 * 3600, maxStreams: 16 } as const;

/** An upload that no attempt could ingest: the job fails at once with this message, without a retry. */
export class InputRefusedError extends Error {
  constructor(reason: string) {
    super(`The video is refused: ${reason}`);
  }
}

/**
 * How ffmpeg and ffprobe open an upload: with the demuxer its bytes were sniffed as (ffmpeg would otherwise
 * probe and may pick another: a GIF, a DASH manifest, an SDP description), no demuxer nested inside it, local
 * files only, no external MOV references, and decoders refusing pictures over the pixel cap.
 */
function demuxerArgs(source: SourceInput): string[] {
  const demuxer = DEMUXERS[source.type];
  return [
    '-protocol_whitelist', 'file',
    '-f', demuxer, '-format_whitelist', demuxer,
    // Both are off by default in 4.1; said here so that another build (FFMPEG_PATH) cannot differ.
    ...(source.type === 'mp4' ? ['-enable_drefs', '0', '-use_absolute_path', '0'] : []),
    '-max_pixels', String(INPUT_LIMITS.maxPixels),
  ];
}

/** `file:` so that the path is never read as another protocol's URL, whatever it contains. */
const fileUrl = (source: SourceInput) => `file:${source.path}`;

/**
 * An upload as ffmpeg's input. The probe has checked the caps by then; these bound what a file can still hide
 * from it: MPEG-TS streams appearing later, a duration longer than declared.
 */
export function inputArgs(source: SourceInput): string[] {
  return [
    ...demuxerArgs(source),
    '-max_streams', String(INPUT_LIMITS.maxStreams), '-t', String(INPUT_LIMITS.maxDurationSeconds),
    '-i', fileUrl(source),
  ];
}

/** ffprobe without -max_streams: it reports the real count, which parseProbe refuses in plain words. */
export function probeArgs(source: SourceInput): string[] {
  return ['-v', 'error', ...demuxerArgs(source), '-print_format', 'json', '-show_format', '-show_streams', fileUrl(source)];
}

/** What ffprobe decodes of a rendition's video: its picture size and pixel shape (`1:1`; null when unknown). */
export interface RenditionPicture {
  width: number;
  height: number;
  sampleAspectRatio: string | null;
}

/** ffprobe of one of our own HLS segments: read as MPEG-TS, from a file only, its first video stream. */
export function segmentProbeArgs(file: string): string[] {
  return [
    '-v', 'error', '-protocol_whitelist', 'file', '-f', 'mpegts', '-format_whitelist', 'mpegts',
    '-select_streams', 'v:0', '-show_entries', 'stream=width,height,sample_aspect_ratio', '-print_format', 'json',
    `file:${file}`,
  ];
}

/** segmentProbeArgs' answer; null when the segment has no video stream. */
export function parseSegmentProbe(json: string): RenditionPicture | null {
  const stream = (JSON.parse(json) as { streams?: ProbeStream[] }).streams?.[0];
  if (!stream?.width || !stream.height) return null;
  const sar = stream.sample_aspect_ratio;
  return { width: Number(stream.width), height: Number(stream.height), sampleAspectRatio: sar !== undefined && ratio(sar, ':') !== null ? sar : null };
}

/** Square pixels: `1:1`, or an unknown shape (`0:1`, none), which players take as square. */
export const isSquare = (picture: Pick<RenditionPicture, 'sampleAspectRatio'>) => (ratio(picture.sampleAspectRatio, ':') ?? 1) === 1;

const clock = (seconds: number) => {
  const s = Math.round(seconds);
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  duration?: string;
  sample_aspect_ratio?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

/** ffprobe's `N:M` (an aspect ratio) or `N/M` (a frame rate) as a number; null for `0:1` (unknown), `N/A` or nothing. */
function ratio(text: string | null | undefined, separator: ':' | '/'): number | null {
  const [n, d] = (text ?? '').split(separator).map(Number);
  return n > 0 && d > 0 ? n / d : null;
}

/**
 * Reads ffprobe's JSON and applies INPUT_LIMITS; throws InputRefusedError for a file without a video stream
 * (cover art is no video) or duration, or past a limit.
 */
export function parseProbe(json: string): ProbeResult {
  const data = JSON.parse(json) as { format?: { duration?: string; nb_streams?: number }; streams?: ProbeStream[] };
  const streams = data.streams ?? [];
  const count = Math.max(streams.length, Number(data.format?.nb_streams) || 0);
  if (count > INPUT_LIMITS.maxStreams) {
    throw new InputRefusedError(`it has ${count} streams, more than ${INPUT_LIMITS.maxStreams}`);
  }
  const videos = streams.filter((s) => s.codec_type === 'video' && s.width && s.height && !s.disposition?.attached_pic);
  const video = videos[0];
  if (!video) throw new InputRefusedError('the file has no video stream');
  for (const { width = 0, height = 0 } of videos) {
    if (width > INPUT_LIMITS.maxSide || height > INPUT_LIMITS.maxSide) {
      throw new InputRefusedError(`its picture is ${width}×${height}, more than ${INPUT_LIMITS.maxSide} pixels a side`);
    }
    if (width * height > INPUT_LIMITS.maxPixels) {
      throw new InputRefusedError(`its picture is ${width}×${height}, more pixels than 7680×4320`);
    }
  }
  const duration = Number(data.format?.duration ?? video.duration);
  if (!(duration > 0)) throw new InputRefusedError('the file has no duration');
  if (duration > INPUT_LIMITS.maxDurationSeconds) {
    throw new InputRefusedError(`it lasts ${clock(duration)}, longer than ${clock(INPUT_LIMITS.maxDurationSeconds)}`);
  }
  const fps = [ratio(video.avg_frame_rate, '/'), ratio(video.r_frame_rate, '/')].find((f) => f !== null && f <= 240) ?? 30;
  // A phone's portrait video is stored landscape with a quarter turn to show it at; ffmpeg decodes it turned
  // (autorotate), so its picture is taller than wide and its pixels' shape turns with it.
  const rotation = Number(video.tags?.rotate ?? video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0);
  const quarterTurn = Math.abs(Math.round(rotation)) % 180 === 90;
  const sar = ratio(video.sample_aspect_ratio, ':') ?? 1;
  return {
    durationSeconds: duration,
    width: Number(quarterTurn ? video.height : video.width),
    height: Number(quarterTurn ? video.width : video.height),
    fps,
    hasAudio: data.streams?.some((s) => s.codec_type === 'audio') ?? false,
    sampleAspectRatio: quarterTurn ? 1 / sar : sar,
  };
}

/**
 * Every HLS rendition in one run: the source is decoded once and split, each branch scaled and encoded to its
 * own playlist `{name}.m3u8` with segments `{name}_NNN.ts`, flat in `dir` (one output per rendition, since
 * ffmpeg 4.1's -var_stream_map writes an empty master).
 */
export function ladderArgs(input: SourceInput, dir: string, renditions: Rendition[], source: ProbeResult): string[] {
  const gop = Math.max(1, Math.round(source.fps * SEGMENT_SECONDS));
  const split = `[0:v]split=${renditions.length}${renditions.map((_, i) => `[s${i}]`).join('')}`;
  const scales = renditions.map((r, i) => `[s${i}]scale=${widthFor(source, r.height)}:${r.height},setsar=1[v${i}]`);
  return [
    '-hide_banner', '-nostdin', '-y', '-progress', 'pipe:1', '-nostats', ...inputArgs(input),
    '-filter_complex', [split, ...scales].join(';'),
    ...renditions.flatMap((r, i) => [
      '-map', `[v${i}]`, ...(source.hasAudio ? ['-map', '0:a:0'] : []),
      '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-level', '4.0', '-pix_fmt', 'yuv420p',
      '-b:v', `${r.videoKbps}k`, '-maxrate', `${Math.round(r.videoKbps * 1.1)}k`, '-bufsize', `${r.videoKbps * 2}k`,
      '-g', String(gop), '-keyint_min', String(gop), '-sc_threshold', '0',
      ...(source.hasAudio ? ['-c:a', 'aac', '-b:a', `${r.audioKbps}k`, '-ac', '2', '-ar', '48000'] : []),
      '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments',
      '-hls_segment_filename', `${dir}/${r.name}_%03d.ts`,
      `${dir}/${r.name}.m3u8`,
    ]),
  ];
}

/**
 * The master playlist naming each rendition by a relative path in the same folder, with the bit rates measured
 * on its segments (`rates` by rendition name: hls-playlist.ts › variantBitRates) and the lowest EXT-X-VERSION
 * it needs (1: nothing in it is newer).
 */
export function masterPlaylist(renditions: Rendition[], source: ProbeResult, rates: Record<string, VariantBitRates>): string {
  const lines = ['#EXTM3U', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const r of renditions) {
    const measured = rates[r.name];
    if (!measured) throw new Error(`No bit rates were measured for ${r.name}`);
    const codecs = source.hasAudio ? `${VIDEO_CODEC_TAG},${AUDIO_CODEC_TAG}` : VIDEO_CODEC_TAG;
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${measured.bandwidth},AVERAGE-BANDWIDTH=${measured.averageBandwidth},RESOLUTION=${widthFor(source, r.height)}x${r.height},FRAME-RATE=${source.fps.toFixed(3)},CODECS="${codecs}"`,
      `${r.name}.m3u8`,
    );
  }
  return withRequiredVersion(`${lines.join('\n')}\n`);
}

export const posterTime = (source: ProbeResult) => Math.min(source.durationSeconds * 0.1, Math.max(0, source.durationSeconds - 0.5));

/** A poster frame from a tenth of the way in (past intros and black frames), at most 720 pixels tall. */
export function posterArgs(input: SourceInput, output: string, source: ProbeResult, at = posterTime(source)): string[] {
  const height = Math.min(720, source.height);
  return ['-hide_banner', '-nostdin', '-y', '-ss', at.toFixed(3), ...inputArgs(input), '-frames:v', '1', '-vf', `scale=${widthFor(source, height)}:${height}`, '-q:v', '3', output];
}

export const STORYBOARD_TILE_WIDTH = 160;
export const STORYBOARD_TARGET_CUES = 100;
export const STORYBOARD_COLUMNS = 10;
export const STORYBOARD_ROWS = 10;

export interface StoryboardPlan {
  interval: number;
  cues: number;
  tileWidth: number;
  tileHeight: number;
  sheets: number;
}

/** About 100 cues, at least a second apart, in sheets of 10 × 10 tiles 160 pixels wide. */
export function storyboardPlan(source: ProbeResult): StoryboardPlan {
  const interval = Math.max(1, source.durationSeconds / STORYBOARD_TARGET_CUES);
  const cues = Math.max(1, Math.ceil(source.durationSeconds / interval));
  const perSheet = STORYBOARD_COLUMNS * STORYBOARD_ROWS;
  return {
    interval,
    cues,
    tileWidth: STORYBOARD_TILE_WIDTH,
    tileHeight: even((STORYBOARD_TILE_WIDTH * source.height) / displayWidth(source)),
    sheets: Math.ceil(cues / perSheet),
  };
}

/** Sprite sheets `sprite-0.jpg`, `sprite-1.jpg`… in `dir`. */
export function storyboardArgs(input: SourceInput, dir: string, plan: StoryboardPlan): string[] {
  return [
    '-hide_banner', '-nostdin', '-y', ...inputArgs(input),
    '-vf', `fps=1/${plan.interval.toFixed(6)},scale=${plan.tileWidth}:${plan.tileHeight},tile=${STORYBOARD_COLUMNS}x${STORYBOARD_ROWS}`,
    '-frames:v', String(plan.sheets), '-q:v', '5', '-start_number', '0',
    '-progress', 'pipe:1', '-nostats',
    `${dir}/sprite-%d.jpg`,
  ];
}

const timestamp = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

/** The WebVTT the player reads for seek previews: one cue per tile, `sprite-N.jpg#xywh=x,y,w,h`. */
export function storyboardVtt(plan: StoryboardPlan, durationSeconds: number): string {
  const perSheet = STORYBOARD_COLUMNS * STORYBOARD_ROWS;
  const cues = ['WEBVTT', ''];
  for (let i = 0; i < plan.cues; i++) {
    const start = i * plan.interval;
    const end = Math.min((i + 1) * plan.interval, durationSeconds);
    if (end <= start) break;
    const inSheet = i % perSheet;
    const x = (inSheet % STORYBOARD_COLUMNS) * plan.tileWidth;
    const y = Math.floor(inSheet / STORYBOARD_COLUMNS) * plan.tileHeight;
    cues.push(`${timestamp(start)} --> ${timestamp(end)}`, `sprite-${Math.floor(i / perSheet)}.jpg#xywh=${x},${y},${plan.tileWidth},${plan.tileHeight}`, '');
  }
  return cues.join('\n');
}

export const PREVIEW_WIDTH = 320;
export const PREVIEW_CLIPS = 5;
export const PREVIEW_CLIP_SECONDS = 2;

/** The muted hover clip: five 2-second clips spread over the video (the whole video when it is short). */
export function previewArgs(input: SourceInput, output: string, source: ProbeResult): string[] {
  const height = even((PREVIEW_WIDTH * source.height) / displayWidth(source));
  const span = source.durationSeconds / PREVIEW_CLIPS;
  const select = span > PREVIEW_CLIP_SECONDS * 1.5
    ? `select='lt(mod(t\\,${span.toFixed(3)})\\,${PREVIEW_CLIP_SECONDS})',setpts=N/FRAME_RATE/TB,`
    : '';
  return [
    '-hide_banner', '-nostdin', '-y', ...inputArgs(input), '-an',
    '-vf', `${select}scale=${PREVIEW_WIDTH}:${height},setsar=1`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-pix_fmt', 'yuv420p', '-movflags', '+faststart',
    '-progress', 'pipe:1', '-nostats',
    output,
  ];
}

/** ffmpeg's `-progress` output: the position reached, in seconds, from its `out_time_ms` (microseconds) lines. */
export function parseProgress(chunk: string): number | null {
  const matches = [...chunk.matchAll(/^out_time_(?:ms|us)=(\d+)$/gm)];
  return matches.length ? Number(matches[matches.length - 1][1]) / 1_000_000 : null;
}
