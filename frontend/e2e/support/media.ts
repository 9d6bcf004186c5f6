import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

// The same ffmpeg build the app uses (the backend's npm dependency), so the run needs nothing else installed.
const ffmpeg: string = process.env.FFMPEG_PATH || createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg').path;

const dir = mkdtempSync(path.join(tmpdir(), 'hunktube-e2e-media-'));

/** A short H.264/AAC MP4 clip with a moving test pattern and a tone, as an admin would upload. */
export function makeClip(seconds = 4): string {
  const file = path.join(dir, `clip-${seconds}s.mp4`);
  execFileSync(ffmpeg, [
    '-y', '-loglevel', 'error',
    '-f', 'lavfi', '-i', `testsrc2=size=480x270:rate=25:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`,
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'veryfast', '-c:a', 'aac', '-shortest', file,
  ]);
  return file;
}

/** A 16:9 JPEG of one colour, as a new thumbnail. */
export function makeJpeg(colour = 'orange'): { file: string; bytes: Buffer } {
  const file = path.join(dir, `thumb-${colour}.jpg`);
  execFileSync(ffmpeg, ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=640x360`, '-frames:v', '1', file]);
  return { file, bytes: readFileSync(file) };
}
