import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { isDependencyDown } from '../common/errors/dependency-errors';
import { JobRunner } from '../jobs/job-runner.service';
import type { JobContext, JobHandler, JobOutcome, JobRow } from '../jobs/job-types';
import { JobsService } from '../jobs/jobs.service';
import { VideosRepository } from '../videos/videos.repository';
import { keyIdsOf, sealRenditions } from './hls-encryption';
import { HlsKeysService } from './hls-keys.service';
import { mediaSegments, variantUris } from './hls-playlist';
import { signedLifetimeSeconds } from './signing';
import { STORE_RETRY_SECONDS } from './ingest.service';
import { StorageService } from './storage.service';

export const HLS_SWEEP_KIND = 'hls-sweep';

/** What a sweep removes from a folder once the links given before a re-key have expired. */
interface SweepPayload {
  stem: string;
  /** Segment files the current playlists no longer name. */
  files: string[];
  /** Keys no current playlist names. */
  keyIds: string[];
}

export interface RekeyResult {
  stem: string;
  keyId: string;
  /** Whether the segments were in the clear before. */
  wasClear: boolean;
  segments: number;
  /** The seconds after which the old segments and keys are swept. */
  sweepAfterSeconds: number;
}

/**
 * Re-keys a published video's HLS in place, the site serving throughout (docs/media.md › Encrypted HLS): every
 * segment is opened (old key, or in the clear), sealed under a new key and written under a new name beside the
 * old; each media playlist is then replaced. Players that loaded the old playlists keep fetching the old
 * segments and key until their signed link has expired: only then does the `hls-sweep` job remove them.
 */
@Injectable()
export class HlsRekeyService implements JobHandler, OnModuleInit {
  readonly kind = HLS_SWEEP_KIND;
  private readonly logger = new Logger(HlsRekeyService.name);

  constructor(
    private readonly storage: StorageService,
    private readonly keys: HlsKeysService,
    private readonly videos: VideosRepository,
    private readonly jobs: JobsService,
    private readonly runner: JobRunner,
  ) {}

  onModuleInit(): void {
    this.runner.register(this);
  }

  /** Re-keys the published video of this stem (a new key, new segments). */
  async rekey(stem: string): Promise<RekeyResult> {
    const video = await this.videos.publishedByStem(stem);
    if (!video) throw new Error(`videos/${stem}: no published video has this folder`);
    const folder = this.storage.videoFolder(stem);
    const playlists = variantUris(await folder.readText('index.m3u8'));
    if (playlists.length === 0) throw new Error(`videos/${stem}: its master playlist names no variant`);
    const next = await this.keys.create(video.id, stem);
    const sealed = await sealRenditions(folder, playlists, next, (keyId) => this.keys.get(stem, keyId));
    await this.keys.retireOthers(stem, next.keyId);
    const sweepAfterSeconds = signedLifetimeSeconds(video.duration);
    const payload: SweepPayload = { stem, files: sealed.replaced, keyIds: sealed.oldKeyIds };
    await this.jobs.enqueueLater(video.id, HLS_SWEEP_KIND, payload as unknown as Record<string, unknown>, sweepAfterSeconds);
    return { stem, keyId: next.keyId, wasClear: sealed.oldKeyIds.length === 0, segments: sealed.segments, sweepAfterSeconds };
  }

  /** Whether the video's HLS is sealed (its first variant names a key). */
  async isEncrypted(stem: string): Promise<boolean> {
    const folder = this.storage.videoFolder(stem);
    const [first] = variantUris(await folder.readText('index.m3u8'));
    return first !== undefined && keyIdsOf(await folder.readText(first)).length > 0;
  }

  /** The stems of the store's HLS folders, for `media:encrypt` to walk. */
  stems(): AsyncGenerator<string> {
    return this.storage.hlsStems();
  }

  /** The `hls-sweep` job: removes what a re-key replaced, sparing whatever the current playlists name. */
  async run(job: JobRow, _context: JobContext): Promise<JobOutcome> {
    const { stem, files, keyIds } = job.payload as unknown as SweepPayload;
    const folder = this.storage.videoFolder(stem);
    // The segments and keys the current playlists name (as players read them): never removed.
    const named = new Set<string>();
    try {
      for (const uri of variantUris(await folder.readText('index.m3u8'))) {
        const segments = mediaSegments(await folder.readText(uri));
        if (!segments) return { state: 'fail', error: `videos/${stem}/${uri} is not a playlist this sweep can read: nothing removed` };
        for (const segment of segments) {
          named.add(segment.name);
          if (segment.key) named.add(segment.key);
        }
      }
    } catch {
      // The video is gone (its folder with it): nothing is named, everything listed may go.
    }
    const doomed = files.filter((f) => !named.has(f));
    try {
      for (const file of doomed) await folder.remove(file);
      for (const keyId of keyIds) if (!named.has(`${keyId}.key`)) await this.keys.remove(stem, keyId);
    } catch (error) {
      const message = (error as Error).message;
      return isDependencyDown(error) ? { state: 'wait', error: message, seconds: STORE_RETRY_SECONDS } : { state: 'retry', error: message };
    }
    this.logger.log(`videos/${stem}: swept ${doomed.length} segment(s) and ${keyIds.length} key(s) a re-key replaced`);
    return { state: 'done' };
  }

  async failed(): Promise<void> {
    // A sweep that failed for good leaves unused files: the next re-key's sweep, or a later run, takes them.
  }
}
