import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import * as path from 'node:path';
import { isDependencyDown } from '../common/errors/dependency-errors';
import { JobRunner } from '../jobs/job-runner.service';
import type { JobContext, JobHandler, JobOutcome, JobRow } from '../jobs/job-types';
import { VideosRepository } from '../videos/videos.repository';
import {
  InputRefusedError, ladderArgs, ladderFor, masterPlaylist, posterArgs, previewArgs, storyboardArgs, storyboardPlan,
  storyboardVtt, type SourceInput,
} from './ffmpeg-args';
import { type DemoClip, demoClipArgs, demoLadderFor } from './demo-clips';
import { FfmpegRunner } from './ffmpeg.runner';
import { sealRenditions } from './hls-encryption';
import { HlsKeysService } from './hls-keys.service';
import { measureVariant } from './hls-measure';
import type { VariantBitRates } from './hls-playlist';
import { ImageVariants, SPRITE_COPIES, THUMBNAIL_COPIES } from './image-variants';
import { redactPaths, stemOf } from '../common/media-paths';
import { StorageService, type Workspace } from './storage.service';
import { sniffVideoType } from './video-type';

export const INGEST_KIND = 'ingest';

/** How long an ingest waits before it tries a media store that did not answer again. */
export const STORE_RETRY_SECONDS = 10;

/** What an ingest job carries: the source under the sources store, and for demo videos how to make it. */
export interface IngestPayload {
  source: string;
  demo?: DemoClip;
}

/** Shares of the job's progress: the renditions are most of the work. */
const WEIGHTS = { probe: 2, renditions: 70, poster: 2, storyboard: 10, preview: 16 };

/**
 * The handler of `ingest` jobs. Turns a source file into the video's media: an HLS ladder in `/videos/{stem}/`,
 * a poster, a storyboard over sprite sheets and a hover preview in `/thumbs/{stem}/`. Everything is written into
 * temporary folders and renamed into place at the end, so the player never finds half-written files; a rerun
 * starts clean. Then the video is published; when the job fails for good, the video is marked failed.
 */
@Injectable()
export class IngestService implements JobHandler, OnModuleInit {
  readonly kind = INGEST_KIND;
  private readonly logger = new Logger(IngestService.name);

  constructor(
    private readonly videos: VideosRepository,
    private readonly ffmpeg: FfmpegRunner,
    private readonly storage: StorageService,
    private readonly runner: JobRunner,
    private readonly images: ImageVariants,
    private readonly keys: HlsKeysService,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'hlsEncryption'>,
  ) {}

  onModuleInit(): void {
    this.runner.register(this);
  }

  async run(job: JobRow, context: JobContext): Promise<JobOutcome> {
    if (job.video_id === null) return { state: 'fail', error: 'An ingest job needs a video' };
    const url = await this.videos.urlOf(job.video_id);
    if (url === null) return { state: 'fail', error: `Video ${job.video_id} is gone` };
    let mediaSeconds: number;
    try {
      mediaSeconds = await this.ingest(job.id, job.video_id, url, job.payload as unknown as IngestPayload, context.report, context.signal);
    } catch (error) {
      const message = redactPaths(error instanceof Error ? error.message : String(error), this.storage.root);
      // The media store out of reach: the same attempt later, however long the outage (docs/media.md).
      if (isDependencyDown(error)) return { state: 'wait', error: `Not reachable now, tried again in ${STORE_RETRY_SECONDS} s: ${message}`, seconds: STORE_RETRY_SECONDS };
      // A refused file would be refused again: no retry.
      return { state: error instanceof InputRefusedError ? 'fail' : 'retry', error: message };
    }
    return { state: 'done', mediaSeconds };
  }

  async failed(job: JobRow): Promise<void> {
    if (job.video_id !== null) await this.videos.markFailed(job.video_id);
  }

  private async ingest(
    jobId: number,
    videoId: number,
    url: string,
    payload: IngestPayload,
    report: (percent: number) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<number> {
    const stem = stemOf(url);
    const sourceKey = this.storage.keyOf('sources', payload.source);
    const workspace = await this.storage.openWorkspace(jobId);
    try {
      if (payload.demo && !(await this.storage.store.stat(sourceKey))) {
        await this.generateDemoClip(payload.demo, sourceKey, workspace.work, signal);
      }
      // The source as a local file for ffmpeg: the store's own on disk, fetched into the workspace from a bucket.
      const sourcePath = await this.storage.localCopy(sourceKey, workspace.work);
      // The demuxer comes from the bytes again, not from the stored name: ffmpeg is never left to guess.
      const type = sniffVideoType(await this.storage.readHead(sourcePath, 512));
      if (!type) throw new InputRefusedError('its bytes are none of the containers read here');
      return await this.transcode(videoId, stem, { path: sourcePath, type }, payload, workspace, report, signal);
    } finally {
      await this.storage.discardWorkspace(workspace);
    }
  }

  /** Makes the video's media in the workspace, publishes it into the store, then publishes the video. */
  private async transcode(
    videoId: number,
    stem: string,
    source: SourceInput,
    payload: IngestPayload,
    workspace: Workspace,
    report: (percent: number) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<number> {
    const { hls: hlsTmp, thumbs: thumbsTmp } = workspace;
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

    const probe = await this.ffmpeg.probe(source, signal);
    done += WEIGHTS.probe;
    await report(done);

    // Demo clips get a lighter ladder so that a first start fills the site in minutes.
    const ladder = payload.demo ? demoLadderFor(probe.height) : ladderFor(probe.height);
    await step(WEIGHTS.renditions, (on) => this.ffmpeg.run(ladderArgs(source, hlsTmp, ladder, probe), on, signal), probe.durationSeconds);
    // Sealed before they are measured: the master declares the bit rates of the bytes players fetch.
    const keyId = this.config.hlsEncryption ? await this.seal(videoId, stem, hlsTmp, ladder.map((r) => `${r.name}.m3u8`)) : null;
    await this.storage.writeFile(path.join(hlsTmp, 'index.m3u8'), masterPlaylist(ladder, probe, await this.declareRenditions(hlsTmp, ladder.map((r) => r.name))));

    const poster = path.join(thumbsTmp, 'poster.jpg');
    await step(WEIGHTS.poster, async () => {
      await this.ffmpeg.run(posterArgs(source, poster, probe), undefined, signal);
      // ffmpeg 4.1 writes nothing (and exits 0) when it cannot seek there, as in an MPEG-TS with a single
      // keyframe: the first frame then makes the poster.
      if (!(await this.storage.exists(poster))) await this.ffmpeg.run(posterArgs(source, poster, probe, 0), undefined, signal);
    }, probe.durationSeconds);
    const plan = storyboardPlan(probe);
    await step(WEIGHTS.storyboard, (on) => this.ffmpeg.run(storyboardArgs(source, thumbsTmp, plan), on, signal), probe.durationSeconds);
    await this.storage.writeFile(path.join(thumbsTmp, 'storyboard.vtt'), storyboardVtt(plan, probe.durationSeconds));
    await this.webpCopies(poster, plan.sheets, thumbsTmp, signal);
    await step(WEIGHTS.preview, (on) => this.ffmpeg.run(previewArgs(source, path.join(thumbsTmp, 'preview.mp4'), probe), on, signal), probe.durationSeconds);

    await this.storage.publishWorkspace(workspace, stem);
    // The folder's segments are all of this ingest now: the keys of the ones it replaced are not needed.
    await this.keys.removeOthers(stem, keyId);
    await this.videos.publish(videoId, stem, { ...probe, renditionHeight: Math.max(...ladder.map((r) => r.height)) });
    this.logger.log(`Ingested video ${videoId} (${ladder.map((r) => r.name).join(', ')})`);
    return probe.durationSeconds;
  }

  /**
   * Encrypts the workspace's segments under a new key of the video (AES-128, docs/media.md › Encrypted HLS),
   * stored before anything sealed with it is published; the clear copies are removed from the workspace.
   */
  private async seal(videoId: number, stem: string, hlsTmp: string, playlists: string[]): Promise<string> {
    const key = await this.keys.create(videoId, stem);
    const sealed = await sealRenditions(this.storage.localFolder(hlsTmp), playlists, key, () => Promise.reject(new Error('a new rendition has no key yet')));
    for (const name of sealed.replaced) await this.storage.removeFile(path.join(hlsTmp, name));
    return key.keyId;
  }

  /**
   * Measures each rendition's segments for the master playlist's BANDWIDTH and AVERAGE-BANDWIDTH, and makes its
   * playlist declare the lowest EXT-X-VERSION it needs (ffmpeg 4.1 writes 6 for -hls_flags independent_segments,
   * where its playlists need 3). docs/media.md.
   */
  private async declareRenditions(hlsTmp: string, names: string[]): Promise<Record<string, VariantBitRates>> {
    const rates: Record<string, VariantBitRates> = {};
    for (const name of names) {
      const variant = await measureVariant(
        { readText: (file) => this.storage.readText(path.join(hlsTmp, file)), sizeOf: (file) => this.storage.sizeOf(path.join(hlsTmp, file)) },
        `${name}.m3u8`,
      );
      if (variant.honest !== variant.text) await this.storage.writeFile(path.join(hlsTmp, variant.uri), variant.honest);
      rates[name] = variant.rates;
    }
    return rates;
  }

  /**
   * The poster's and the sprites' WebP copies (a few hundred milliseconds). Should one fail, the video is
   * published all the same: a missing copy is made on its first request.
   */
  private async webpCopies(poster: string, sheets: number, thumbsTmp: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.images.derive(poster, THUMBNAIL_COPIES, signal);
      for (let sheet = 0; sheet < sheets; sheet++) await this.images.derive(path.join(thumbsTmp, `sprite-${sheet}.jpg`), SPRITE_COPIES, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      this.logger.warn(`WebP copies of the images failed; they will be made when first asked for: ${(error as Error).message}`);
    }
  }

  /** Makes a demo catalogue's source clip in the workspace, then adopts it into the store as `sourceKey`. */
  private async generateDemoClip(clip: DemoClip, sourceKey: string, work: string, signal?: AbortSignal): Promise<void> {
    const partial = path.join(work, 'demo-clip.mp4');
    try {
      await this.ffmpeg.run(demoClipArgs(clip, partial), undefined, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      // drawtext needs a font through fontconfig; without one, the clip goes untitled.
      this.logger.warn(`Drawing the demo title failed, making the clip without it: ${(error as Error).message}`);
      await this.ffmpeg.run(demoClipArgs(clip, partial, false), undefined, signal);
    }
    await this.storage.adopt(partial, sourceKey);
  }
}
