import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { FFMPEG_NICENESS, FfmpegRunner } from './ffmpeg.runner';

/** The pids of this process's children that run ffmpeg, from /proc/{pid}/stat ("pid (comm) state ppid …"). */
const ffmpegChildren = (): number[] =>
  readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      return comm === 'ffmpeg' && Number(rest.split(' ')[1]) === process.pid ? [Number(pid)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });

describe('FfmpegRunner', () => {
  it('runs ffmpeg nicer than the API, so that requests get the CPU first', async () => {
    const runner = new FfmpegRunner({ ffmpegPath: null, ffprobePath: null });
    const base = getPriority();
    const seen: number[] = [];
    // Two seconds of test pattern at real-time speed (-re), thrown away: long enough to look at the process.
    const run = runner.run(['-hide_banner', '-nostdin', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=64x48:rate=10:duration=2', '-f', 'null', '-']);
    for (let i = 0; i < 40 && seen.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      for (const pid of ffmpegChildren()) seen.push(getPriority(pid));
    }
    await run;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p) => p === Math.min(19, base + FFMPEG_NICENESS))).toBe(true);
  });
});
