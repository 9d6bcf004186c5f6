import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidInputError } from '../common/errors/domain-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { firstVariantName, type MediaSegment, mediaSegments, segmentAt } from './hls-playlist';
import { isInside, resolveInside } from './store/disk-media-store';

export { OUTSIDE_STORE, OutsideStoreError } from './store/media-store';

/** Filesystem errors that mean "the path names a folder, or goes through a file", not a server fault. */
const NOT_A_FILE_PATH = new Set(['EISDIR', 'ENOTDIR', 'EEXIST', 'ENAMETOOLONG']);

/** A file was to be written where a folder is, or through a file: 400. */
export class NotAFilePathError extends InvalidInputError {}

/** The temporary folders an ingest writes into before they are moved into place. */
export interface Workspace {
  hls: string;
  thumbs: string;
}

/**
 * The only code that touches media files. MEDIA_DIR holds `videos/{stem}/` (HLS), `thumbs/{stem}/` (poster,
 * storyboard, sprites, hover preview, thumbnails) and `sources/` (uploads). Every path from outside is resolved
 * inside its root, symlinks included, or refused; files are written to a temporary name and renamed into place.
 * It throws domain errors (the worker has no HTTP); the exceptions filter answers them as 400.
 */
@Injectable()
export class StorageService {
  readonly root: string;
  readonly videosRoot: string;
  readonly thumbsRoot: string;
  readonly sourcesRoot: string;
  /** Where uploads stream to while they arrive, before they are checked and adopted into the sources. */
  readonly incomingUploads: string;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'mediaDir'>) {
    this.root = config.mediaDir;
    this.videosRoot = path.join(this.root, 'videos');
    this.thumbsRoot = path.join(this.root, 'thumbs');
    this.sourcesRoot = path.join(this.root, 'sources');
    this.incomingUploads = path.join(this.sourcesRoot, '.uploads');
  }

  /** The absolute path of `relative` inside `root`, or OutsideStoreError (store/disk-media-store.ts). */
  resolveInside(root: string, relative: string): Promise<string> {
    return resolveInside(root, relative);
  }

  /**
   * The real path of `file` when it exists and stays inside `root` (no symlink out of the store), else null:
   * what the media routes may send.
   */
  async servable(root: string, file: string): Promise<string | null> {
    const real = await fs.realpath(file).catch(() => null);
    const realRoot = await fs.realpath(root).catch(() => root);
    return real && isInside(realRoot, real) ? real : null;
  }

  /**
   * Writes the bytes to a temporary file beside the target and renames it into place: readers see old or new.
   * NotAFilePathError when the target is a folder or lies through a file.
   */
  async writeAtomic(target: string, bytes: Buffer | string): Promise<void> {
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(temporary, bytes, { flag: 'wx' });
      await fs.rename(temporary, target);
    } catch (error) {
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      if (NOT_A_FILE_PATH.has((error as NodeJS.ErrnoException).code ?? '')) throw new NotAFilePathError((error as Error).message);
      throw error;
    }
  }

  /** Writes a small file inside a workspace (not yet visible to anyone). */
  async writeFile(target: string, text: string): Promise<void> {
    await fs.writeFile(target, text);
  }

  async exists(file: string): Promise<boolean> {
    return fs.lstat(file).then(() => true, () => false);
  }

  /** When a file was last written (milliseconds); ENOENT when it is gone. */
  async modifiedAt(file: string): Promise<number> {
    return (await fs.stat(file)).mtimeMs;
  }

  /**
   * Where hls.js starts a video's stream (docs/web-client.md › "First frame"), as paths from MEDIA_DIR: the
   * first variant playlist its master playlist names (`videos/{stem}/240p.m3u8`, the rendition hls.js starts
   * with), and that variant's segment at `position` (seconds; 0 from the start), which hls.js asks for first.
   * A watch page preloads both beside the master. Null when the master names no variant of its own folder or
   * cannot be read; the segment is null past the end, or when the variant's segments are not plain files of its
   * folder (mediaSegments). Each playlist read is kept per file and time of writing.
   */
  async streamStart(master: string, position: number): Promise<{ variant: string; segment: string | null } | null> {
    try {
      const masterFile = await this.resolveInside(this.root, master);
      const name = await this.keptRead(this.masters, masterFile, firstVariantName);
      if (!name) return null;
      // The variant and its segments are files of the master's folder (firstVariantName, mediaSegments).
      const folder = path.posix.dirname(master);
      const variant = path.posix.join(folder, name);
      const segments = await this.resolveInside(this.root, variant)
        .then((variantFile) => this.keptRead(this.variants, variantFile, mediaSegments))
        .catch(() => null);
      const segment = segments && segmentAt(segments, position);
      return { variant, segment: segment ? path.posix.join(folder, segment.name) : null };
    } catch {
      return null;
    }
  }

  /** A file's text parsed by `parse`, kept in `kept` until the file is written again; ENOENT when it is gone. */
  private async keptRead<T>(kept: LRUCache<string, { written: number; value: T }>, file: string, parse: (text: string) => T): Promise<T> {
    const written = await this.modifiedAt(file);
    const known = kept.get(file);
    if (known?.written === written) return known.value;
    const value = parse(await fs.readFile(file, 'utf8'));
    kept.set(file, { written, value });
    return value;
  }

  private readonly masters = new LRUCache<string, { written: number; value: string | null }>({ max: 10_000 });
  /** Segment lists, counted by segment: a two-hour video in 4-second segments holds 1,800. */
  private readonly variants = new LRUCache<string, { written: number; value: MediaSegment[] | null }>({
    maxSize: 200_000,
    sizeCalculation: (kept) => 1 + (kept.value?.length ?? 0),
  });

  /** A small file's text (a playlist); ENOENT when it is gone. */
  async readText(file: string): Promise<string> {
    return fs.readFile(file, 'utf8');
  }

  /** A file's size in bytes; ENOENT when it is gone. */
  async sizeOf(file: string): Promise<number> {
    return (await fs.stat(file)).size;
  }

  /** Which folder (or file) a path is now: it changes when another is renamed over it, as an ingest publishes. */
  async identityOf(file: string): Promise<string> {
    const { dev, ino } = await fs.stat(file);
    return `${dev}:${ino}`;
  }

  /**
   * The stems of the videos with HLS in the store: every folder under `videos/` holding a master playlist
   * (`index.m3u8`), in name order. Temporary folders (`.incoming`, any dot-name) and symlinks are passed over.
   */
  async *hlsStems(): AsyncGenerator<string> {
    const walk = async function* (folder: string, stem: string): AsyncGenerator<string> {
      const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (stem && entries.some((e) => e.isFile() && e.name === 'index.m3u8')) yield stem;
      for (const entry of entries) {
        if (entry.isDirectory() && !entry.name.startsWith('.')) yield* walk(path.join(folder, entry.name), stem ? `${stem}/${entry.name}` : entry.name);
      }
    };
    yield* walk(this.videosRoot, '');
  }

  /** The first `length` bytes of a file (fewer when it is shorter), to tell its type by content. */
  async readHead(file: string, length: number): Promise<Buffer> {
    const handle = await fs.open(file, 'r');
    try {
      const head = Buffer.alloc(length);
      const { bytesRead } = await handle.read(head, 0, length, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** The folder uploads stream into, made when missing (multer asks for it synchronously). */
  incomingUploadsDir(): string {
    this.privateSources();
    mkdirSync(this.incomingUploads, { recursive: true });
    return this.incomingUploads;
  }

  /** Moves a file into the store (an accepted upload into the sources), making its folder. */
  async adopt(from: string, to: string): Promise<void> {
    this.privateSources();
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.rename(from, to);
  }

  private sourcesMadePrivate = false;

  /**
   * The sources (uploads as they came, before and after their checks) are the server's alone: their folder is
   * made 0700, so that no other user of the machine can read or replace them, whatever the process's umask.
   * The published renditions and images stay readable: in the container stack, nginx reads them as another user.
   */
  private privateSources(): void {
    if (this.sourcesMadePrivate) return;
    mkdirSync(this.sourcesRoot, { recursive: true, mode: 0o700 });
    chmodSync(this.sourcesRoot, 0o700);
    this.sourcesMadePrivate = true;
  }

  /** Copies a file from outside into the incoming uploads, as if it had been uploaded; answers its path. */
  async copyIn(file: string): Promise<string> {
    const target = path.join(this.incomingUploadsDir(), `import-${Date.now()}-${randomBytes(4).toString('hex')}${path.extname(file)}`);
    await fs.copyFile(file, target);
    return target;
  }

  /** Makes the folder a file is about to be written into. */
  async prepareFolderOf(file: string): Promise<void> {
    await fs.mkdir(path.dirname(file), { recursive: true });
  }

  /** Renames a finished file over its final name. */
  async rename(from: string, to: string): Promise<void> {
    await fs.rename(from, to);
  }

  async removeFile(file: string): Promise<void> {
    await fs.rm(file, { force: true });
  }

  /** Fresh, empty temporary folders for a job's HLS and images (anything a killed earlier run left is gone). */
  async openWorkspace(jobId: number): Promise<Workspace> {
    const workspace = this.workspaceOf(jobId);
    await this.discardWorkspace(workspace);
    await Promise.all([workspace.hls, workspace.thumbs].map((d) => fs.mkdir(d, { recursive: true })));
    return workspace;
  }

  async discardWorkspace(workspace: Workspace): Promise<void> {
    await Promise.all([workspace.hls, workspace.thumbs].map((d) => fs.rm(d, { recursive: true, force: true })));
  }

  /** Moves a finished workspace into the video's folders, each replaced by renames (readers see old or new). */
  async publishWorkspace(workspace: Workspace, stem: string): Promise<void> {
    await this.moveIntoPlace(workspace.hls, path.join(this.videosRoot, stem));
    await this.moveIntoPlace(workspace.thumbs, path.join(this.thumbsRoot, stem));
  }

  /** Removes a video's HLS and image folders (its stem's), leaving other videos' alone. */
  async removeVideoMedia(stem: string): Promise<void> {
    for (const root of [this.videosRoot, this.thumbsRoot]) {
      const folder = await this.resolveInside(root, stem).catch(() => null);
      if (folder && folder !== root) await fs.rm(folder, { recursive: true, force: true });
    }
  }

  private workspaceOf(jobId: number): Workspace {
    return {
      hls: path.join(this.videosRoot, '.incoming', String(jobId)),
      thumbs: path.join(this.thumbsRoot, '.incoming', String(jobId)),
    };
  }

  /** Replaces `target` with `ready` by renames, so readers see the old folder or the new one, never a mix. */
  private async moveIntoPlace(ready: string, target: string): Promise<void> {
    await fs.mkdir(path.dirname(target), { recursive: true });
    const old = `${ready}.old`;
    const hadOld = await fs.rename(target, old).then(() => true, () => false);
    await fs.rename(ready, target);
    if (hadOld) await fs.rm(old, { recursive: true, force: true });
  }
}

