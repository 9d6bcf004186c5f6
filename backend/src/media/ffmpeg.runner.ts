import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import * as ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import * as ffprobeStatic from 'ffprobe-static';
import { spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import {
  InputRefusedError, parseProbe, parseProgress, parseSegmentProbe, probeArgs, type ProbeResult, type RenditionPicture,
  segmentProbeArgs, type SourceInput,
} from './ffmpeg-args';
import { VIDEO_TYPE_NAMES } from './video-type';

/** ffmpeg 4.1 from `@ffmpeg-installer/ffmpeg` (FFMPEG_PATH names another). */
export function ffmpegPath(): string {
  return ffmpegInstaller.path;
}

/**
 * ffprobe 4.0 from `ffprobe-static`: the ffprobe 6 build of @ffprobe-installer crashes (SIGSEGV) on MPEG-TS,
 * our own HLS segments included.
 */
export function ffprobePath(): string {
  return ffprobeStatic.path;
}

export class FfmpegError extends Error {}

/** How much nicer than the API transcoding runs: a request waiting for the CPU goes first, an idle CPU still transcodes at full speed. */
export const FFMPEG_NICENESS = 10;

/**
 * Lowers the new ffmpeg's scheduling priority before it starts its encoder threads (which inherit it), so that
 * an ingest or the demo catalogue does not hold the API's requests up on a small machine (the soak measured
 * p99 over a second in the minute of an upload at normal priority). Best effort: where it is refused, ffmpeg
 * runs at the API's priority.
 */
function yieldToRequests(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, getPriority() + FFMPEG_NICENESS));
  } catch {
    // not allowed here: run as is
  }
}

/** The only code that spawns processes: ffmpeg with progress reports, ffprobe for facts. */
@Injectable()
export class FfmpegRunner {
  private readonly ffmpeg: string;
  private readonly ffprobe: string;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'ffmpegPath' | 'ffprobePath'>) {
    this.ffmpeg = config.ffmpegPath ?? ffmpegPath();
    this.ffprobe = config.ffprobePath ?? ffprobePath();
  }

  /** Runs ffmpeg; `onProgress` gets the position reached in seconds. Rejects with the tail of stderr. */
  run(args: string[], onProgress?: (seconds: number) => void, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
      yieldToRequests(child.pid);
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        const seconds = parseProgress(chunk);
        if (seconds !== null) onProgress?.(seconds);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-4000);
      });
      child.on('error', (error) => reject(new FfmpegError(`ffmpeg could not run: ${error.message}`)));
      child.on('close', (code, killedBy) => {
        if (code === 0) resolve();
        else reject(new FfmpegError(`ffmpeg failed (${killedBy ?? `exit ${code}`}): ${lastLines(stderr)}`));
      });
    });
  }

  /**
   * The facts of an upload, read with its sniffed demuxer. Rejects with InputRefusedError past the caps, else
   * with FfmpegError when ffprobe cannot read it as that container.
   */
  async probe(input: SourceInput, signal?: AbortSignal): Promise<ProbeResult> {
    const { code, stdout, stderr } = await this.ffprobeRun(probeArgs(input), signal);
    if (code !== 0) {
      const why = lastLines(stderr) || `ffprobe exit ${code}`;
      throw new FfmpegError(`Not a playable video: it cannot be read as ${VIDEO_TYPE_NAMES[input.type]}, the container its first bytes announce (${why})`);
    }
    try {
      return parseProbe(stdout);
    } catch (error) {
      throw error instanceof InputRefusedError ? error : new FfmpegError(`Not a playable video: ${(error as Error).message}`);
    }
  }

  /** What a rendition decodes to, read from one of its segments (our own MPEG-TS); null without a video stream. */
  async probeSegment(file: string, signal?: AbortSignal): Promise<RenditionPicture | null> {
    const { code, stdout, stderr } = await this.ffprobeRun(segmentProbeArgs(file), signal);
    if (code !== 0) throw new FfmpegError(`ffprobe failed (exit ${code}): ${lastLines(stderr)}`);
    try {
      return parseSegmentProbe(stdout);
    } catch (error) {
      throw new FfmpegError(`ffprobe's answer is unreadable: ${(error as Error).message}`);
    }
  }

  /** Runs ffprobe to its end: its exit code, its answer and the last of what it said on stderr. */
  private ffprobeRun(args: string[], signal?: AbortSignal): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.ffprobe, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-4000)));
      child.on('error', (error) => reject(new FfmpegError(`ffprobe could not run: ${error.message}`)));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ');
}
