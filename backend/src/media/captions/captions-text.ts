import { WebVTTParser, WebVTTSerializer } from 'webvtt-parser';

/** Caption files are at most this large (413 past it). */
export const CAPTIONS_MAX_BYTES = 512 * 1024;
/** Cues a file may hold: a three-hour film has about 2,000. */
export const CAPTIONS_MAX_CUES = 10_000;

export class CaptionsFileError extends Error {}

const SRT_TIMING = /^\s*(\d{1,3}):(\d{2}):(\d{2})[,.](\d{1,3})\s*-->\s*(\d{1,3}):(\d{2}):(\d{2})[,.](\d{1,3})(.*)$/;

const stamp = (h: string, m: string, s: string, ms: string) => `${h.padStart(2, '0')}:${m}:${s}.${ms.padEnd(3, '0')}`;

/** An SRT file as WebVTT text, cue for cue (ids dropped, timings with a dot); the WebVTT parser then checks it. */
export function srtToVtt(srt: string): string {
  const blocks = srt.split(/\n{2,}/);
  const cues: string[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((line, i) => i > 0 || line.trim() !== '');
    const at = lines.findIndex((line) => SRT_TIMING.test(line));
    if (at < 0 || at > 1) continue; // not a cue: a stray line, or text with no timing
    const [, h1, m1, s1, ms1, h2, m2, s2, ms2] = SRT_TIMING.exec(lines[at])!;
    // A line with an arrow would end the cue in WebVTT: it is dropped, as is a blank end.
    const text = lines.slice(at + 1).filter((line) => !line.includes('-->') && line.trim() !== '');
    if (text.length === 0) continue;
    cues.push(`${stamp(h1, m1, s1, ms1)} --> ${stamp(h2, m2, s2, ms2)}\n${text.join('\n')}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/**
 * An uploaded caption file (WebVTT or SRT, UTF-8) as the WebVTT the site serves: parsed by the W3C's WebVTT
 * parser and written again from what it parsed, so only cues survive (no NOTE, STYLE or REGION blocks), with
 * the cue markup WebVTT defines (b, i, u, c, v, lang, ruby, timestamps); any other tag is dropped, keeping its
 * text. Browsers show cue text as text, never as HTML, so this is about serving a clean, valid file.
 * CaptionsFileError when it is not UTF-8 text, or holds no cue.
 */
export function toWebVtt(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CaptionsFileError('The captions must be UTF-8 text');
  }
  if (text.includes('\u0000')) throw new CaptionsFileError('The captions must be UTF-8 text');
  text = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const vtt = /^WEBVTT(?:[ \t]|\n|$)/.test(text) ? text : srtToVtt(text);
  const parsed = new WebVTTParser().parse(vtt, 'subtitles');
  const cues = parsed.cues.filter((cue) => cue.endTime > cue.startTime && cue.text.trim() !== '');
  if (cues.length === 0) throw new CaptionsFileError('The file holds no WebVTT or SRT captions');
  if (cues.length > CAPTIONS_MAX_CUES) throw new CaptionsFileError(`The file holds more than ${CAPTIONS_MAX_CUES} captions`);
  // The serializer writes the cue text from its parsed tree (the sanitising), but timings as `m:ss.ttt` and hours
  // of one digit, which WebVTT does not allow: each cue's timing line is written here, its settings kept.
  const serializer = new WebVTTSerializer();
  const out: string[] = [];
  for (const cue of cues) {
    const lines = serializer.serialize([{ ...cue, id: '' }]).split('\n');
    const timing = lines.findIndex((line) => line.includes('-->'));
    const settings = lines[timing].replace(/^\S+\s+-->\s+\S+/, '');
    const body = lines.slice(timing + 1).join('\n').trim();
    if (body) out.push(`${timestamp(cue.startTime)} --> ${timestamp(cue.endTime)}${settings}\n${body}`);
  }
  if (out.length === 0) throw new CaptionsFileError('The file holds no WebVTT or SRT captions');
  return `WEBVTT\n\n${out.join('\n\n')}\n`;
}

/** Seconds as a WebVTT timestamp, hours always written: `00:01:05.500`. */
function timestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}
