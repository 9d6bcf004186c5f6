/**
 * What a video upload is, by its first bytes rather than its name: MP4/MOV (an `ftyp` box), Matroska/WebM,
 * AVI, MPEG-TS, MPEG-PS or FLV; null for anything else.
 */
export type VideoType = 'mp4' | 'matroska' | 'avi' | 'mpegts' | 'mpegps' | 'flv';

export function sniffVideoType(head: Buffer): VideoType | null {
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') return 'mp4';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'AVI ') return 'avi';
  if (head.length >= 377 && head[0] === 0x47 && head[188] === 0x47 && head[376] === 0x47) return 'mpegts';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x000001ba) return 'mpegps';
  if (head.length >= 3 && head.toString('latin1', 0, 3) === 'FLV') return 'flv';
  return null;
}

/**
 * ffmpeg's demuxer for each type (`ffmpeg -formats`). Ingest forces it: probing would let ffmpeg read the
 * bytes after the sniffed header as any of its formats instead.
 */
export const DEMUXERS: Record<VideoType, string> = {
  mp4: 'mov', matroska: 'matroska', avi: 'avi', mpegts: 'mpegts', mpegps: 'mpeg', flv: 'flv',
};

/** The type's name in messages for admins. */
export const VIDEO_TYPE_NAMES: Record<VideoType, string> = {
  mp4: 'MP4/MOV', matroska: 'Matroska/WebM', avi: 'AVI', mpegts: 'MPEG-TS', mpegps: 'MPEG-PS', flv: 'FLV',
};
