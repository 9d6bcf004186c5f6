import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import * as ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import * as ffprobeStatic from 'ffprobe-static';
import { spawn } from 'node:child_process';
import { parseProbe, parseProgress, probeArgs, type ProbeResult } from './ffmpeg-args';

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

  probe(input: string): Promise<ProbeResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.ffprobe, probeArgs(input), { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-4000)));
      child.on('error', (error) => reject(new FfmpegError(`ffprobe could not run: ${error.message}`)));
      child.on('close', (code) => {
        if (code !== 0) return reject(new FfmpegError(`Not a playable video: ${lastLines(stderr) || `ffprobe exit ${code}`}`));
        try {
          resolve(parseProbe(stdout));
        } catch (error) {
          reject(new FfmpegError(`Not a playable video: ${(error as Error).message}`));
        }
      });
    });
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ');
}
