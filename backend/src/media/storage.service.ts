import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

export const OUTSIDE_STORE = 'The path must stay inside the media store';

/**
 * The only code that touches media files. MEDIA_DIR holds `videos/{stem}/` (HLS), `thumbs/{stem}/` (poster,
 * storyboard, sprites, hover preview, thumbnails) and `sources/` (uploads). Every path from outside is resolved
 * inside its root, symlinks included, or refused; files are written to a temporary name and renamed into place.
 */
@Injectable()
export class StorageService {
  readonly root: string;
  readonly videosRoot: string;
  readonly thumbsRoot: string;
  readonly sourcesRoot: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.root = config.mediaDir;
    this.videosRoot = path.join(this.root, 'videos');
    this.thumbsRoot = path.join(this.root, 'thumbs');
    this.sourcesRoot = path.join(this.root, 'sources');
  }

  /**
   * The absolute path of `relative` inside `root`, or a 400: no absolute paths, no `..` segments, no NUL, and
   * no symlink on the way that leads out of the root.
   */
  async resolveInside(root: string, relative: string): Promise<string> {
    const clean = relative.replace(/^\/+/, '');
    if (!clean || clean.includes('\0') || path.isAbsolute(clean) || clean.split(/[\\/]+/).some((s) => s === '..' || s === '.')) {
      throw new BadRequestException(OUTSIDE_STORE);
    }
    const target = path.resolve(root, clean);
    if (!isInside(root, target)) throw new BadRequestException(OUTSIDE_STORE);
    // Follow the longest existing ancestor through symlinks: it must still be inside the root.
    const realRoot = await fs.realpath(root).catch(() => path.resolve(root));
    let existing = target;
    while (!(await exists(existing)) && existing !== root) existing = path.dirname(existing);
    const realExisting = await fs.realpath(existing).catch(() => existing);
    if (!isInside(realRoot, realExisting) && realExisting !== realRoot) throw new BadRequestException(OUTSIDE_STORE);
    return target;
  }

  /** Writes the bytes to a temporary file beside the target and renames it into place: readers see old or new. */
  async writeAtomic(target: string, bytes: Buffer): Promise<void> {
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.writeFile(temporary, bytes, { flag: 'wx' });
      await fs.rename(temporary, target);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  /** Removes a video's HLS and image folders (its stem's), leaving other videos' alone. */
  async removeVideoMedia(stem: string): Promise<void> {
    for (const root of [this.videosRoot, this.thumbsRoot]) {
      const folder = await this.resolveInside(root, stem).catch(() => null);
      if (folder && folder !== root) await fs.rm(folder, { recursive: true, force: true });
    }
  }
}

export function isInside(root: string, target: string): boolean {
  const relative = path.relative(path.resolve(root), path.resolve(target));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}
