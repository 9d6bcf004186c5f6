import { execFileSync } from 'node:child_process';
import { ffmpegPath } from '../../src/media/ffmpeg.runner';

/**
 * A real clip made by ffmpeg into `file`: a moving test pattern (testsrc2) with a 440 Hz tone, H.264 and AAC in
 * MP4, `seconds` long. `faststart` puts the index first (what a streamed or padded file needs).
 */
export function testClip(file: string, { seconds, size = '640x360', rate = 30, audio = true, faststart = false }: { seconds: number; size?: string; rate?: number; audio?: boolean; faststart?: boolean }): string {
  execFileSync(ffmpegPath(), [
    '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`,
    ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:a', 'aac', '-shortest'] : []),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...(faststart ? ['-movflags', '+faststart'] : []), file,
  ]);
  return file;
}
