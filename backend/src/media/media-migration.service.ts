import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import { MediaPlacements } from './media-placements.service';
import { StorageService } from './storage.service';
import { contentTypeOf, type MediaStore, type StoredObject } from './store/media-store';
import { stemOfKey, type StoreDriver } from './store/placed-media-store';

/** Objects copied at once: a bucket answers many small writes better side by side than one after another. */
const PARALLEL_COPIES = 4;
/** Times a video is copied again when its objects changed while it was copied (a re-key, a new thumbnail). */
const SETTLE_TRIES = 3;

export interface MigrationOptions {
  to: StoreDriver;
  /** Count what would move, write nothing. */
  dryRun?: boolean;
  /** Leave the copies in the old store (a backup) instead of removing them after the grace. */
  keep?: boolean;
  /** Seconds between the last switch and removing the old copies: every process must have read the placements. */
  graceSeconds?: number;
  onProgress?: (progress: MigrationProgress) => void;
}

export interface MigrationProgress {
  videos: number;
  videosDone: number;
  bytes: number;
  bytesDone: number;
  /** The video being copied, or null while removing old copies. */
  stem: string | null;
}

export interface MigrationReport {
  from: StoreDriver;
  to: StoreDriver;
  /** Videos placed in the target store by this run. */
  moved: string[];
  /** Videos not moved, and why (a verification that failed, a store that failed): the run exits 1. */
  failed: { stem: string; error: string }[];
  /** Objects written to the target store, and those already there with the same bytes (a resumed run). */
  copied: number;
  alreadyThere: number;
  bytes: number;
  /** Source uploads copied to the target store (read from either until the old copy goes). */
  sources: number;
  /** Objects removed from the old store (moved videos' and sources' old copies). */
  removed: number;
}

/** A copy whose bytes or size differ from the original's. */
export class VerificationError extends Error {}

/**
 * `npm run media:migrate -- --to s3|disk` (issue #32, point 5; docs/operating.md › "Moving media"): moves every
 * video's objects and the source uploads from one store to the other while the site serves. Per video: each
 * object copied (streamed, its SHA-256 taken on the way), then read back from the target and held to the same
 * size and SHA-256; objects already in the target with the same bytes are not copied again, so a run killed
 * anywhere resumes where it stopped. Only when every object of a video is verified, and the old folder has not
 * changed meanwhile, is the video placed in the target (MediaPlacements: every process reads it from there from
 * then on). After a grace, the old copies are removed, unless `keep`.
 */
@Injectable()
export class MediaMigration {
  constructor(
    private readonly storage: StorageService,
    private readonly placements: MediaPlacements,
  ) {}

  async run(options: MigrationOptions): Promise<MigrationReport> {
    const { store } = this.storage;
    const to = options.to;
    const fromDriver: StoreDriver = to === 's3' ? 'disk' : 's3';
    const target = store.storeFor(to);
    const source = store.storeFor(fromDriver);
    if (!target || !source) throw new Error('No bucket is set: media:migrate needs S3_BUCKET, S3_ACCESS_KEY and S3_SECRET_KEY (and S3_ENDPOINT for a server of your own)');
    // Placements as they are now, whatever announcements this process may have missed.
    if (!(await this.placements.reread())) throw new Error('The database does not answer: where the videos are cannot be read');

    // What the old store holds: the videos not yet placed in the target, and the old copies of those that are.
    const pending = new Map<string, number>();
    const leftovers = new Set<string>();
    for (const top of ['videos/', 'thumbs/']) {
      for await (const object of source.list(top)) {
        const stem = stemOfKey(object.key);
        if (stem === null) continue;
        if (store.placementOf(stem) === to) leftovers.add(stem);
        else pending.set(stem, (pending.get(stem) ?? 0) + object.size);
      }
    }
    const sources: StoredObject[] = [];
    for await (const object of source.list('sources/')) sources.push(object);

    const report: MigrationReport = { from: fromDriver, to, moved: [], failed: [], copied: 0, alreadyThere: 0, bytes: 0, sources: 0, removed: 0 };
    const progress: MigrationProgress = {
      videos: pending.size,
      videosDone: 0,
      bytes: [...pending.values()].reduce((a, b) => a + b, 0) + sources.reduce((a, o) => a + o.size, 0),
      bytesDone: 0,
      stem: null,
    };
    if (options.dryRun) {
      options.onProgress?.(progress);
      return report;
    }
    const tell = () => options.onProgress?.({ ...progress });
    tell();

    for (const stem of [...pending.keys()].sort()) {
      progress.stem = stem;
      tell();
      try {
        await this.moveVideo(stem, source, target, report, (bytes) => {
          progress.bytesDone += bytes;
          tell();
        });
        await this.placements.place([stem], to);
        report.moved.push(stem);
        leftovers.add(stem);
      } catch (error) {
        report.failed.push({ stem, error: (error as Error).message });
      }
      progress.videosDone += 1;
      tell();
    }

    // Sources belong to no video: copied and verified, then read from either store until the old copy goes.
    const sourcesCopied: string[] = [];
    for (const object of sources) {
      try {
        await this.copyVerified(object, source, target, report);
        sourcesCopied.push(object.key);
        report.sources += 1;
      } catch (error) {
        report.failed.push({ stem: object.key, error: (error as Error).message });
      }
      progress.bytesDone += object.size;
      tell();
    }

    if (options.keep) return report;
    progress.stem = null;
    tell();
    if (leftovers.size > 0 || sourcesCopied.length > 0) await new Promise((resolve) => setTimeout(resolve, (options.graceSeconds ?? 60) * 1000));
    // The placements read once more after the grace; unread, no video's old copies are removed.
    const placementsRead = leftovers.size > 0 && (await this.placements.reread());
    for (const stem of placementsRead ? [...leftovers].sort() : []) {
      // Placed again elsewhere meanwhile (another run the other way): its copies here are its only ones.
      if (store.placementOf(stem) !== to) continue;
      for (const top of ['videos', 'thumbs']) report.removed += await source.removeFolder(`${top}/${stem}/`);
    }
    for (const key of sourcesCopied) {
      await source.remove(key);
      report.removed += 1;
    }
    return report;
  }

  /**
   * Copies a video's two folders and verifies every object; copies again what changed in the old store while it
   * was copied (a re-key writes new segments and playlists), until a pass finds nothing new.
   */
  private async moveVideo(stem: string, source: MediaStore, target: MediaStore, report: MigrationReport, copiedBytes: (n: number) => void): Promise<void> {
    let seen = new Map<string, string>();
    for (let pass = 0; pass < SETTLE_TRIES; pass++) {
      const objects: StoredObject[] = [];
      for (const top of ['videos', 'thumbs']) for await (const object of source.list(`${top}/${stem}/`)) objects.push(object);
      const changed = objects.filter((o) => seen.get(o.key) !== o.version);
      if (pass > 0 && changed.length === 0 && objects.length === seen.size) {
        // What the target has beyond the source (an object removed meanwhile) goes, so the folders are equal.
        for (const top of ['videos', 'thumbs']) {
          for await (const object of target.list(`${top}/${stem}/`)) if (!seen.has(object.key)) await target.remove(object.key);
        }
        return;
      }
      // Every copy settles before the first failure is thrown: none is left writing behind the caller.
      const limit = pLimit(PARALLEL_COPIES);
      const copies = await Promise.allSettled(
        changed.map((object) =>
          limit(async () => {
            await this.copyVerified(object, source, target, report);
            if (pass === 0) copiedBytes(object.size);
          }),
        ),
      );
      const failed = copies.find((copy): copy is PromiseRejectedResult => copy.status === 'rejected');
      if (failed) throw failed.reason;
      seen = new Map(objects.map((o) => [o.key, o.version]));
    }
    throw new Error(`its objects kept changing while they were copied (${SETTLE_TRIES} passes); run again`);
  }

  /** Copies an object unless the target has the same bytes, then holds the target's copy to its size and SHA-256. */
  private async copyVerified(object: StoredObject, source: MediaStore, target: MediaStore, report: MigrationReport): Promise<void> {
    const there = await target.stat(object.key);
    if (there && there.size === object.size && (await sha256Of(target, object.key)) === (await sha256Of(source, object.key))) {
      report.alreadyThere += 1;
      return;
    }
    const read = await source.read(object.key);
    const hash = createHash('sha256');
    const body = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await Promise.all([pipeline(read.body, body), target.write(object.key, body, { contentType: contentTypeOf(object.key) })]).catch((error: unknown) => {
      read.body.destroy();
      body.destroy();
      throw error;
    });
    const expected = hash.digest('hex');
    const copy = await target.stat(object.key);
    if (!copy || copy.size !== read.size || (await sha256Of(target, object.key)) !== expected) {
      await target.remove(object.key).catch(() => undefined);
      throw new VerificationError(`${object.key}: the copy in the ${target.driver === 's3' ? 'bucket' : 'disk store'} does not match the original (size or SHA-256)`);
    }
    report.copied += 1;
    report.bytes += read.size;
  }
}

async function sha256Of(store: MediaStore, key: string): Promise<string> {
  const hash = createHash('sha256');
  const { body } = await store.read(key);
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
