import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import {
  ladderArgs, ladderFor, masterPlaylist, posterArgs, previewArgs, type ProbeResult, storyboardArgs, storyboardPlan, storyboardVtt,
} from './ffmpeg-args';
import { type DemoClip, demoClipArgs } from './demo-clips';
import { FfmpegRunner } from './ffmpeg.runner';
import { stemOf } from './media-paths';
import { StorageService } from './storage.service';

export const INGEST_KIND = 'ingest';

/** What an ingest job carries: the source under the sources store, and for demo videos how to make it. */
export interface IngestPayload {
  source: string;
  demo?: DemoClip;
}

/** Shares of the job's progress: the renditions are most of the work. */
const WEIGHTS = { probe: 2, renditions: 70, poster: 2, storyboard: 10, preview: 16 };

/**
 * Turns a source file into the video's media: an HLS ladder in `/videos/{stem}/`, a poster, a storyboard over
 * sprite sheets and a hover preview in `/thumbs/{stem}/`. Everything is written into temporary folders and
 * renamed into place at the end, so the player never finds half-written files; a rerun starts clean.
 */
@Injectable()
export class IngestService {
  private readonly logger = new Logger(IngestService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly ffmpeg: FfmpegRunner,
    private readonly storage: StorageService,
  ) {}

  async ingest(
    jobId: number,
    videoId: number,
    payload: IngestPayload,
    report: (percent: number) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    const [video] = await this.db.query<{ url: string }[]>('SELECT url FROM videos WHERE id = $1', [videoId]);
    if (!video) throw new Error(`Video ${videoId} is gone`);
    const stem = stemOf(video.url);
    const source = await this.storage.resolveInside(this.storage.sourcesRoot, payload.source);
    if (payload.demo && !(await fs.stat(source).then(() => true, () => false))) {
      await this.generateDemoClip(payload.demo, source, signal);
    }
    const hlsTmp = path.join(this.storage.videosRoot, '.incoming', String(jobId));
    const thumbsTmp = path.join(this.storage.thumbsRoot, '.incoming', String(jobId));
    await Promise.all([hlsTmp, thumbsTmp].map((d) => fs.rm(d, { recursive: true, force: true })));
    await Promise.all([hlsTmp, thumbsTmp].map((d) => fs.mkdir(d, { recursive: true })));

    let done = 0;
    const step = async (weight: number, run: (onSeconds: (s: number) => void) => Promise<void>, durationSeconds: number) => {
      let last = 0;
      await run((seconds) => {
        const fraction = Math.min(1, seconds / durationSeconds);
        const now = done + weight * fraction;
        if (now - last >= 1) {
          last = now;
          void report(now);
        }
      });
      done += weight;
      await report(done);
    };

    try {
      const probe = await this.ffmpeg.probe(source);
      done += WEIGHTS.probe;
      await report(done);

      const ladder = ladderFor(probe.height);
      await step(WEIGHTS.renditions, (on) => this.ffmpeg.run(ladderArgs(source, hlsTmp, ladder, probe), on, signal), probe.durationSeconds);
      await fs.writeFile(path.join(hlsTmp, 'index.m3u8'), masterPlaylist(ladder, probe));

      await step(WEIGHTS.poster, () => this.ffmpeg.run(posterArgs(source, path.join(thumbsTmp, 'poster.jpg'), probe), undefined, signal), probe.durationSeconds);
      const plan = storyboardPlan(probe);
      await step(WEIGHTS.storyboard, (on) => this.ffmpeg.run(storyboardArgs(source, thumbsTmp, plan), on, signal), probe.durationSeconds);
      await fs.writeFile(path.join(thumbsTmp, 'storyboard.vtt'), storyboardVtt(plan, probe.durationSeconds));
      await step(WEIGHTS.preview, (on) => this.ffmpeg.run(previewArgs(source, path.join(thumbsTmp, 'preview.mp4'), probe), on, signal), probe.durationSeconds);

      await this.moveIntoPlace(hlsTmp, path.join(this.storage.videosRoot, stem));
      await this.moveIntoPlace(thumbsTmp, path.join(this.storage.thumbsRoot, stem));
      await this.publish(videoId, stem, probe);
      this.logger.log(`Ingested video ${videoId} (${ladder.map((r) => r.name).join(', ')})`);
    } finally {
      await Promise.all([hlsTmp, thumbsTmp].map((d) => fs.rm(d, { recursive: true, force: true })));
    }
  }

  /** Makes a demo catalogue's source clip (written aside and renamed, like everything else). */
  private async generateDemoClip(clip: DemoClip, source: string, signal?: AbortSignal): Promise<void> {
    await fs.mkdir(path.dirname(source), { recursive: true });
    const partial = `${source}.partial.mp4`;
    try {
      await this.ffmpeg.run(demoClipArgs(clip, partial), undefined, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      // drawtext needs a font through fontconfig; without one, the clip goes untitled.
      this.logger.warn(`Drawing the demo title failed, making the clip without it: ${(error as Error).message}`);
      await this.ffmpeg.run(demoClipArgs(clip, partial, false), undefined, signal);
    }
    await fs.rename(partial, source);
  }

  /** Replaces `target` with `ready` by renames, so readers see the old folder or the new one, never a mix. */
  private async moveIntoPlace(ready: string, target: string): Promise<void> {
    await fs.mkdir(path.dirname(target), { recursive: true });
    const old = `${ready}.old`;
    const hadOld = await fs.rename(target, old).then(() => true, () => false);
    await fs.rename(ready, target);
    if (hadOld) await fs.rm(old, { recursive: true, force: true });
  }

  private async publish(videoId: number, stem: string, probe: ProbeResult): Promise<void> {
    await this.db.query(
      `UPDATE videos SET status = 'ready', media_ready = true, duration = $2, width = $3, height = $4,
              thumbnail = CASE WHEN thumbnail = '' THEN $5 ELSE thumbnail END, updated_at = now()
       WHERE id = $1`,
      [videoId, Math.max(1, Math.floor(probe.durationSeconds)), probe.width, probe.height, `/thumbs/${stem}/poster.jpg`],
    );
  }
}
