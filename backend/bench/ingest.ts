import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { mediaContextModule } from '../src/media/media-context';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import {
  ladderArgs, ladderFor, posterArgs, previewArgs, probeArgs, storyboardArgs, storyboardPlan,
} from '../src/media/ffmpeg-args';
import { ffmpegPath, ffprobePath } from '../src/media/ffmpeg.runner';
import { INGEST_KIND } from '../src/media/ingest.service';
import { JobRunner } from '../src/jobs/job-runner.service';
import { JobsService } from '../src/jobs/jobs.service';
import { FfmpegRunner } from '../src/media/ffmpeg.runner';

/**
 * The ingest scenario of `npm run bench`: a 60 s 1080p clip through the whole pipeline (job claim, probe, ladder,
 * poster, storyboard, preview, renames, database updates), as a multiple of real time, and the pipeline's time
 * against the bare ffmpeg commands it runs, measured in the same run. BENCH_INGEST_SECONDS sets the clip length.
 */
export async function benchIngest(): Promise<{ clipSeconds: number; pipelineSeconds: number; bareSeconds: number; realtimeMultiple: number; overheadRatio: number }> {
  const clipSeconds = Number(process.env.BENCH_INGEST_SECONDS ?? 60);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-ingest-'));
  const clip = path.join(dir, 'clip.mp4');
  try {
    execFileSync(ffmpegPath(), [
      '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${clipSeconds}`,
      '-f', 'lavfi', '-i', `sine=frequency=440:duration=${clipSeconds}`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip,
    ]);

    // The bare commands, one after another, as the pipeline runs them.
    const bareDir = path.join(dir, 'bare');
    mkdirSync(bareDir);
    const bareStarted = performance.now();
    const source = { path: clip, type: 'mp4' as const };
    const probe = await new FfmpegRunner({ ffmpegPath: null, ffprobePath: null }).probe(source);
    execFileSync(ffprobePath(), probeArgs(source));
    for (const args of [
      ladderArgs(source, bareDir, ladderFor(probe.height), probe),
      posterArgs(source, path.join(bareDir, 'poster.jpg'), probe),
      storyboardArgs(source, bareDir, storyboardPlan(probe)),
      previewArgs(source, path.join(bareDir, 'preview.mp4'), probe),
    ]) {
      execFileSync(ffmpegPath(), args, { stdio: 'ignore' });
    }
    const bareSeconds = (performance.now() - bareStarted) / 1000;

    // The pipeline.
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent', INGEST_WORKER: 'false' }) };
    const app = await NestFactory.createApplicationContext(mediaContextModule(config), { logger: false });
    try {
      const db = app.get(DataSource);
      const [{ id }] = await db.query<{ id: number }[]>(
        `INSERT INTO videos (slug, url, title, status) VALUES ('bench', '/bench/clip.mp4', 'Bench', 'processing') RETURNING id`,
      );
      mkdirSync(path.join(config.mediaDir, 'sources', 'bench'), { recursive: true });
      copyFileSync(clip, path.join(config.mediaDir, 'sources', 'bench', 'clip.mp4'));
      await app.get(JobsService).enqueue(Number(id), INGEST_KIND, { source: 'bench/clip.mp4' });
      const started = performance.now();
      await app.get(JobRunner).drain();
      const pipelineSeconds = (performance.now() - started) / 1000;
      const [job] = await db.query<{ state: string; error: string | null }[]>('SELECT state, error FROM ingest_jobs');
      if (job.state !== 'done') throw new Error(`The bench ingest ended ${job.state}: ${job.error}`);
      return {
        clipSeconds,
        pipelineSeconds: Number(pipelineSeconds.toFixed(1)),
        bareSeconds: Number(bareSeconds.toFixed(1)),
        realtimeMultiple: Number((clipSeconds / pipelineSeconds).toFixed(2)),
        overheadRatio: Number((pipelineSeconds / bareSeconds).toFixed(3)),
      };
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
