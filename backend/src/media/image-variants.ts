import { IMAGE_VARIANT_WIDTHS, imageVariantPath, type ImageVariantWidth, parseImageVariant } from '@hunktube/shared';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { FfmpegRunner } from './ffmpeg.runner';
import { StorageService } from './storage.service';
import { ObjectNotFoundError } from './store/media-store';

/** WebP quality: 75 keeps a card's picture indistinguishable at a third of the JPEG's bytes (measured in docs/media.md › "Images"). */
export const WEBP_QUALITY = 75;
/** No image larger than this is decoded (a 10 MB PNG can claim 20,000 × 20,000 pixels). */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** The copies a poster or a card thumbnail gets: one per width that cards and the player ask for. */
export const THUMBNAIL_COPIES: readonly (ImageVariantWidth | 'full')[] = IMAGE_VARIANT_WIDTHS;
/** A storyboard sprite's copy: its own size, so that the storyboard's tile coordinates still hold. */
export const SPRITE_COPIES: readonly (ImageVariantWidth | 'full')[] = ['full'];

/** ffmpeg's arguments for one WebP copy of an image (never wider than the original). */
export function imageVariantArgs(input: string, output: string, width: ImageVariantWidth | 'full'): string[] {
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    '-max_pixels', String(MAX_IMAGE_PIXELS), '-i', input,
    ...(width === 'full' ? [] : ['-vf', `scale='min(${width},iw)':-2`]),
    '-frames:v', '1', '-c:v', 'libwebp', '-quality', String(WEBP_QUALITY), '-f', 'webp', output,
  ];
}

/** Too many copies are being made at once: the request may come back later (503). */
export class ImageVariantsBusyError extends Error {}

export type EnsuredCopy =
  /** The copy is in the store (made now or before), by key. */
  | { kind: 'copy'; key: string }
  /** The original cannot be converted here (ffmpeg 4.1 reads no AVIF, for one): serve it as it is. */
  | { kind: 'original'; key: string }
  /** There is no such original: 404. */
  | { kind: 'none' };

interface Limits {
  /** ffmpeg processes making copies on request at once. */
  concurrency: number;
  /** Requests waiting for one of them; past this, ImageVariantsBusyError. */
  queue: number;
}

/**
 * WebP copies of the thumbnail store's images (`@hunktube/shared` names them). Made eagerly where an image is
 * written (the ingest, a thumbnail upload) and lazily on a copy's first request otherwise, so an older catalogue
 * needs no backfill. Lazy making is bounded: one ffmpeg per copy however many ask (single flight), a few at a
 * time, a short queue, and an original that failed to convert is not tried again until it changes.
 */
@Injectable()
export class ImageVariants {
  private readonly limits: Limits = { concurrency: 2, queue: 64 };
  private readonly inFlight = new Map<string, Promise<EnsuredCopy>>();
  /** Originals that ffmpeg could not read, by key and version (bounded). */
  private readonly unconvertible = new Map<string, string>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly storage: StorageService,
    private readonly ffmpeg: FfmpegRunner,
  ) {}

  /** For tests: other limits. */
  withLimits(limits: Limits): this {
    Object.assign(this.limits, limits);
    return this;
  }

  /** Makes the copies of `original` (a local file: an ingest's workspace) beside it, replacing older ones. */
  async derive(original: string, copies: readonly (ImageVariantWidth | 'full')[], signal?: AbortSignal): Promise<void> {
    for (const width of copies) {
      const target = imageVariantPath(original, width);
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await this.ffmpeg.run(imageVariantArgs(original, temporary, width), undefined, signal);
        await this.storage.renameLocal(temporary, target);
      } finally {
        await this.storage.removeFile(temporary);
      }
    }
  }

  /** Makes the copies of the stored image `key` (an admin's new thumbnail) as objects beside it. */
  async deriveStored(key: string, copies: readonly (ImageVariantWidth | 'full')[]): Promise<void> {
    await this.storage.withScratch(async (scratch) => {
      const original = await this.storage.localCopy(key, scratch);
      for (const width of copies) await this.make(original, imageVariantPath(key, width), width, scratch);
    });
  }

  /** Removes every copy of the stored image `key` (before it is replaced, so that no copy outlives its original). */
  async removeCopies(key: string): Promise<void> {
    const widths: (ImageVariantWidth | 'full')[] = [...IMAGE_VARIANT_WIDTHS, 'full'];
    await Promise.all(widths.map((width) => this.storage.store.remove(imageVariantPath(key, width))));
  }

  /**
   * What to serve for `relative` (inside the thumbnail store) when it names a copy that is not in the store:
   * made from its original now, or the original itself when it cannot be converted. Null when `relative` names
   * no copy at all.
   */
  async ensure(relative: string): Promise<EnsuredCopy | null> {
    const parsed = parseImageVariant(relative);
    if (!parsed) return null;
    const original = this.storage.keyOf('thumbs', parsed.original);
    const target = imageVariantPath(original, parsed.width);
    const pending = this.inFlight.get(target);
    if (pending) return pending;
    const made = this.makeOnRequest(original, target, parsed.width).finally(() => this.inFlight.delete(target));
    this.inFlight.set(target, made);
    return made;
  }

  private async makeOnRequest(original: string, target: string, width: ImageVariantWidth | 'full'): Promise<EnsuredCopy> {
    const stat = await this.storage.store.stat(original);
    if (!stat) return { kind: 'none' };
    if (this.unconvertible.get(original) === stat.version) return { kind: 'original', key: original };
    if (await this.storage.store.stat(target)) return { kind: 'copy', key: target };
    await this.slot();
    try {
      await this.storage.withScratch(async (scratch) => this.make(await this.storage.localCopy(original, scratch), target, width, scratch));
      return { kind: 'copy', key: target };
    } catch (error) {
      if (error instanceof ObjectNotFoundError) return { kind: 'none' };
      if (this.unconvertible.size >= 10_000) this.unconvertible.delete(this.unconvertible.keys().next().value as string);
      this.unconvertible.set(original, stat.version);
      return { kind: 'original', key: original };
    } finally {
      this.release();
    }
  }

  /** One copy of the local file `original`, made in `scratch` and written to the store as `target`. */
  private async make(original: string, target: string, width: ImageVariantWidth | 'full', scratch: string, signal?: AbortSignal): Promise<void> {
    const made = path.join(scratch, `${randomBytes(6).toString('hex')}.webp`);
    await this.ffmpeg.run(imageVariantArgs(original, made, width), undefined, signal);
    await this.storage.store.writeFile(target, made);
  }

  private async slot(): Promise<void> {
    if (this.running < this.limits.concurrency) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.limits.queue) throw new ImageVariantsBusyError('Too many images are being prepared; try again shortly');
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
