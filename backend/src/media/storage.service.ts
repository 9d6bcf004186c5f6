import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SealableFolder } from './hls-encryption';
import { buffer } from 'node:stream/consumers';
import { InvalidInputError } from '../common/errors/domain-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { firstVariantName, type MediaSegment, mediaSegments, segmentAt } from './hls-playlist';
import { DiskMediaStore, isInside, resolveInside } from './store/disk-media-store';
import { checkKey, type MediaStore, ObjectNotFoundError, OutsideStoreError } from './store/media-store';
import { PlacedMediaStore } from './store/placed-media-store';
import { S3MediaStore } from './store/s3-media-store';

export { OUTSIDE_STORE, OutsideStoreError } from './store/media-store';

/** Filesystem errors that mean "the path names a folder, or goes through a file", not a server fault. */
const NOT_A_FILE_PATH = new Set(['EISDIR', 'ENOTDIR', 'EEXIST', 'ENAMETOOLONG']);

/** A file was to be written where a folder is, or through a file: 400. */
export class NotAFilePathError extends InvalidInputError {}

/** The local folders an ingest works in (the worker's scratch), published into the store at its end. */
export interface Workspace {
  hls: string;
  thumbs: string;
  /** Where the source is fetched to (from a bucket) or a demo clip is made. */
  work: string;
}

type StorageConfig = Pick<AppConfig, 'mediaDir'> & Partial<Pick<AppConfig, 'mediaStore' | 'dataDir'>>;

/**
 * The app's way to its media: the store (MEDIA_STORE: files under MEDIA_DIR, or a bucket; store/media-store.ts)
 * by key (`videos/{stem}/…`, `thumbs/{stem}/…`, `sources/…`), and the local scratch folders where uploads
 * arrive and ffmpeg works before what it made is published. It throws domain errors (the worker has no HTTP);
 * the exceptions filter answers them as 400/404.
 */
/** An upload kept in the spool: the source key it is for and the ingest job that waits for it. */
export interface SpooledUpload {
  key: string;
  jobId: number;
  videoId: number;
}

@Injectable()
export class StorageService implements OnModuleInit {
  private readonly logger = new Logger(StorageService.name);
  /** MEDIA_STORE's store, and while media moves, the other one (PlacedMediaStore: each video where it is placed). */
  readonly store: PlacedMediaStore;
  /** MEDIA_DIR: the disk store's root. */
  readonly root: string;
  readonly videosRoot: string;
  readonly thumbsRoot: string;
  readonly sourcesRoot: string;
  /** Where uploads stream to while they arrive, before they are checked and adopted into the sources. */
  readonly incomingUploads: string;
  /** The ingest's scratch with a bucket (DATA_DIR/scratch): this machine's own, nothing shared. */
  private readonly scratchRoot: string;
  /** Uploads kept while the bucket cannot be reached (DATA_DIR/spool), each beside its manifest: not scratch. */
  readonly spoolRoot: string;

  constructor(@Inject(APP_CONFIG) config: StorageConfig) {
    this.root = config.mediaDir;
    this.videosRoot = path.join(this.root, 'videos');
    this.thumbsRoot = path.join(this.root, 'thumbs');
    this.sourcesRoot = path.join(this.root, 'sources');
    const s3 = config.mediaStore?.driver === 's3' ? config.mediaStore.s3 : null;
    const bucket = config.mediaStore?.s3;
    // With a bucket, MEDIA_DIR is where videos moved to disk are (media:migrate -- --to disk); with the disk, the
    // bucket is where videos moved there are, when one is set.
    this.store = s3
      ? new PlacedMediaStore(new S3MediaStore(s3), new DiskMediaStore(this.root))
      : new PlacedMediaStore(new DiskMediaStore(this.root), bucket ? new S3MediaStore(bucket) : null);
    // On disk, uploads and workspaces live beside the store's folders (renames, not copies, move them in); with
    // a bucket, in this machine's scratch.
    this.scratchRoot = path.join(config.dataDir ?? path.join(tmpdir(), 'hunktube'), 'scratch');
    this.spoolRoot = path.join(config.dataDir ?? path.join(tmpdir(), 'hunktube'), 'spool');
    this.incomingUploads = s3 ? path.join(this.scratchRoot, 'uploads') : path.join(this.sourcesRoot, '.uploads');
  }

  /** With a bucket: made when missing, with its policy (S3MediaStore.prepareBucket); a failure is said, not fatal. */
  async onModuleInit(): Promise<void> {
    const store = this.store.storeFor('s3');
    if (!(store instanceof S3MediaStore)) return;
    await store.prepareBucket().catch((error: unknown) => {
      this.logger.warn(`The media bucket ${store.settings.bucket} could not be prepared: ${(error as Error).message}`);
    });
  }

  /** The local file of `key` with the disk store (null with a bucket): what Express's sendFile may send. */
  async diskFile(key: string): Promise<string | null> {
    const store = this.store.storeOf(key);
    if (!(store instanceof DiskMediaStore)) return null;
    const file = await store.fileOf(key);
    // Inside the key's own top folder: no symlink from the renditions into the sources, say.
    return this.servable(path.join(this.root, key.slice(0, key.indexOf('/'))), file);
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

  /** `relative` (a path under a store folder, a leading slash allowed) as the key under `folder`; OutsideStoreError. */
  keyOf(folder: 'videos' | 'thumbs' | 'sources', relative: string): string {
    return checkKey(`${folder}/${relative.replace(/^\/+/, '')}`);
  }

  /** Writes an object whole (readers see old or new); NotAFilePathError where a folder is, or through a file. */
  async writeObject(key: string, bytes: Buffer | string): Promise<void> {
    try {
      await this.store.write(key, bytes);
    } catch (error) {
      if (NOT_A_FILE_PATH.has((error as NodeJS.ErrnoException).code ?? '')) throw new NotAFilePathError((error as Error).message);
      throw error;
    }
  }

  /** Removes an object (gone already: nothing to do). */
  async removeObject(key: string): Promise<void> {
    await this.store.remove(key);
  }

  /** The driver of the store that serves `key` (its video's placement; a source where it is). */
  async driverOf(key: string): Promise<MediaStore['driver']> {
    return (await this.store.locate(key)).driver;
  }

  /** The first `length` bytes of an object (fewer when it is shorter); ObjectNotFoundError. */
  async readObjectHead(key: string, length: number): Promise<Buffer> {
    const { body } = await this.store.read(key, { start: 0, end: length - 1 });
    return (await buffer(body)).subarray(0, length);
  }

  /**
   * A local file with the object's bytes, for ffmpeg: the disk store's own file, or a copy fetched from the
   * bucket into `folder` (the caller's scratch, removed with it). ObjectNotFoundError.
   */
  async localCopy(key: string, folder: string): Promise<string> {
    const store = await this.store.locate(key);
    if (store instanceof DiskMediaStore) {
      const file = await store.fileOf(key);
      if (!(await store.stat(key))) throw new ObjectNotFoundError(key);
      return file;
    }
    const file = path.join(folder, `${randomBytes(6).toString('hex')}${path.posix.extname(key)}`);
    await this.store.download(key, file);
    return file;
  }

  /**
   * Moves a local file (an upload that passed its checks, a demo clip) into the store as `key`: renamed into
   * place on disk, streamed to the bucket otherwise (and the local file removed).
   */
  async adopt(from: string, key: string): Promise<void> {
    const store = this.store.storeOf(key);
    if (store instanceof DiskMediaStore) {
      if (key.startsWith('sources/')) this.privateSources();
      const to = await store.fileOf(key);
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.rename(from, to);
      return;
    }
    await this.store.writeFile(key, from);
    await fs.rm(from, { force: true });
  }

  // The spool: uploads accepted while the bucket could not be reached, sent when it can (UploadSpool).

  /** Keeps a checked upload in the spool for `entry.key`: the file moved in, then its manifest written whole. */
  async spool(from: string, entry: SpooledUpload): Promise<void> {
    await fs.mkdir(this.spoolRoot, { recursive: true, mode: 0o700 });
    const base = path.join(this.spoolRoot, String(entry.jobId));
    await fs.rename(from, `${base}.upload`);
    await fs.writeFile(`${base}.json.tmp`, JSON.stringify(entry));
    await fs.rename(`${base}.json.tmp`, `${base}.json`);
  }

  /** The spooled uploads, oldest job first; a manifest without its file (or unreadable) is dropped. */
  async spooled(): Promise<SpooledUpload[]> {
    const names = await fs.readdir(this.spoolRoot).catch(() => [] as string[]);
    const entries: SpooledUpload[] = [];
    for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
      const base = path.join(this.spoolRoot, name.slice(0, -'.json'.length));
      const entry = await fs.readFile(`${base}.json`, 'utf8').then((text) => JSON.parse(text) as SpooledUpload, () => null);
      if (entry && (await this.exists(`${base}.upload`))) entries.push(entry);
      else await this.dropSpooled(Number(name.slice(0, -'.json'.length)));
    }
    return entries.sort((a, b) => a.jobId - b.jobId);
  }

  /** Sends a spooled upload to the store (a multipart upload started over); the spool keeps it until `dropSpooled`. */
  async sendSpooled(entry: SpooledUpload): Promise<void> {
    await this.store.writeFile(checkKey(entry.key), path.join(this.spoolRoot, `${entry.jobId}.upload`));
  }

  async dropSpooled(jobId: number): Promise<void> {
    const base = path.join(this.spoolRoot, String(jobId));
    await fs.rm(`${base}.json`, { force: true });
    await fs.rm(`${base}.upload`, { force: true });
  }

  /**
   * Where hls.js starts a video's stream (docs/web-client.md › "First frame"), as keys: the first variant
   * playlist its master playlist names (`videos/{stem}/240p.m3u8`, the rendition hls.js starts with), that
   * variant's segment at `position` (seconds; 0 from the start), which hls.js asks for first, and the key that
   * segment is sealed with, which hls.js asks for just before it (docs/media.md › Encrypted HLS). A watch page
   * preloads them beside the master. Null when the master names no variant of its own folder or cannot be
   * read; the segment is null past the end, or when the variant's segments are not plain files of its folder
   * (mediaSegments). Each playlist read is kept per key and version.
   */
  async streamStart(master: string, position: number): Promise<{ variant: string; segment: string | null; key?: string } | null> {
    try {
      const name = await this.keptRead(this.masters, checkKey(master), firstVariantName);
      if (!name) return null;
      // The variant, its segments and their keys are files of the master's folder (firstVariantName, mediaSegments).
      const folder = path.posix.dirname(master);
      const variant = path.posix.join(folder, name);
      const segments = await this.keptRead(this.variants, variant, mediaSegments).catch(() => null);
      const segment = segments && segmentAt(segments, position);
      if (!segment) return { variant, segment: null };
      return { variant, segment: path.posix.join(folder, segment.name), ...(segment.key ? { key: path.posix.join(folder, segment.key) } : {}) };
    } catch {
      return null;
    }
  }

  /** An object's text parsed by `parse`, kept in `kept` until the object is written again; ObjectNotFoundError. */
  private async keptRead<T>(kept: LRUCache<string, { version: string; value: T }>, key: string, parse: (text: string) => T): Promise<T> {
    const stat = await this.store.stat(key);
    if (!stat) throw new ObjectNotFoundError(key);
    const known = kept.get(key);
    if (known?.version === stat.version) return known.value;
    const value = parse((await this.store.readBytes(key)).toString('utf8'));
    kept.set(key, { version: stat.version, value });
    return value;
  }

  private readonly masters = new LRUCache<string, { version: string; value: string | null }>({ max: 10_000 });
  /** Segment lists, counted by segment: a two-hour video in 4-second segments holds 1,800. */
  private readonly variants = new LRUCache<string, { version: string; value: MediaSegment[] | null }>({
    maxSize: 200_000,
    sizeCalculation: (kept) => 1 + (kept.value?.length ?? 0),
  });

  /**
   * The stems of the videos with HLS in the store: every folder under `videos/` holding a master playlist
   * (`index.m3u8`), in key order. Temporary folders (dot-names) are never keys.
   */
  async *hlsStems(): AsyncGenerator<string> {
    for await (const object of this.store.list('videos/')) {
      if (object.key.endsWith('/index.m3u8')) yield object.key.slice('videos/'.length, -'/index.m3u8'.length);
    }
  }

  // Local files: uploads as they arrive, and the ingest's workspaces.

  /** A local file's text (a playlist in a workspace); ENOENT when it is gone. */
  async readText(file: string): Promise<string> {
    return fs.readFile(file, 'utf8');
  }

  /** A local file's size in bytes; ENOENT when it is gone. */
  async sizeOf(file: string): Promise<number> {
    return (await fs.stat(file)).size;
  }

  /** Writes a small local file (inside a workspace, not yet visible to anyone). */
  async writeFile(target: string, body: string | Buffer): Promise<void> {
    await fs.writeFile(target, body);
  }

  /** A local folder's files by name (a workspace's HLS, for sealing its segments). */
  localFolder(folder: string): SealableFolder {
    return {
      readText: (name) => fs.readFile(path.join(folder, name), 'utf8'),
      readBytes: (name) => fs.readFile(path.join(folder, name)),
      write: (name, body) => fs.writeFile(path.join(folder, name), body),
    };
  }

  /** A video's HLS objects by name (`videos/{stem}/{name}`), for re-keying in place. */
  videoFolder(stem: string): SealableFolder & { remove(name: string): Promise<void> } {
    const prefix = `${checkKey(`videos/${stem}`)}/`;
    return {
      readText: async (name) => (await this.store.readBytes(`${prefix}${name}`)).toString('utf8'),
      readBytes: (name) => this.store.readBytes(`${prefix}${name}`),
      write: (name, body) => this.store.write(`${prefix}${name}`, body),
      remove: (name) => this.store.remove(`${prefix}${name}`),
    };
  }

  async exists(file: string): Promise<boolean> {
    return fs.lstat(file).then(() => true, () => false);
  }

  /** The first `length` bytes of a local file (fewer when it is shorter), to tell its type by content. */
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
    if (this.store.primary instanceof DiskMediaStore) this.privateSources();
    mkdirSync(this.incomingUploads, { recursive: true, mode: 0o700 });
    return this.incomingUploads;
  }

  private sourcesMadePrivate = false;

  /**
   * The sources (uploads as they came, before and after their checks) are the server's alone: their folder is
   * made 0700, so that no other user of the machine can read or replace them, whatever the process's umask.
   * The published renditions and images stay readable: in the container stack, nginx reads them as another user.
   * In a bucket, the sources are outside the folders its policy lets anyone read (S3MediaStore.prepareBucket).
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

  async removeFile(file: string): Promise<void> {
    await fs.rm(file, { force: true });
  }

  /** Renames a finished local file over its final name (a WebP copy in a workspace). */
  async renameLocal(from: string, to: string): Promise<void> {
    await fs.rename(from, to);
  }

  /** Runs `work` with a local folder of its own (for ffmpeg's input and output), removed after it. */
  async withScratch<T>(work: (folder: string) => Promise<T>): Promise<T> {
    const folder = await fs.mkdtemp(path.join(tmpdir(), 'hunktube-scratch-'));
    try {
      return await work(folder);
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  }

  /** Fresh, empty local folders for a job's HLS, images and source (anything a killed earlier run left is gone). */
  async openWorkspace(jobId: number): Promise<Workspace> {
    const workspace = this.workspaceOf(jobId);
    await this.discardWorkspace(workspace);
    await Promise.all(Object.values(workspace).map((d) => fs.mkdir(d, { recursive: true })));
    if (this.store.primary instanceof DiskMediaStore) this.privateSources();
    return workspace;
  }

  async discardWorkspace(workspace: Workspace): Promise<void> {
    await Promise.all(Object.values(workspace).map((d) => fs.rm(d, { recursive: true, force: true })));
  }

  /** Publishes a finished workspace as the video's objects (MediaStore.publishFolder: playlists last). */
  async publishWorkspace(workspace: Workspace, stem: string): Promise<void> {
    await this.store.publishFolder(workspace.hls, `${checkKey(`videos/${stem}`)}/`);
    await this.store.publishFolder(workspace.thumbs, `${checkKey(`thumbs/${stem}`)}/`);
  }

  /** Removes a video's HLS and image objects (its stem's), leaving other videos' alone; a bad stem removes nothing. */
  async removeVideoMedia(stem: string): Promise<void> {
    for (const folder of ['videos', 'thumbs']) {
      let prefix: string;
      try {
        prefix = `${checkKey(`${folder}/${stem}`)}/`;
      } catch (error) {
        if (error instanceof OutsideStoreError) return;
        throw error;
      }
      await this.store.removeFolder(prefix);
    }
  }

  /**
   * On disk, the workspace sits beside the folders it is published into (dot-names, never keys), so that it
   * is moved in by renames; with a bucket, in this machine's scratch.
   */
  private workspaceOf(jobId: number): Workspace {
    if (this.store.primary instanceof DiskMediaStore) {
      return {
        hls: path.join(this.videosRoot, '.incoming', String(jobId)),
        thumbs: path.join(this.thumbsRoot, '.incoming', String(jobId)),
        work: path.join(this.sourcesRoot, '.incoming', String(jobId)),
      };
    }
    const job = path.join(this.scratchRoot, 'jobs', String(jobId));
    return { hls: path.join(job, 'hls'), thumbs: path.join(job, 'thumbs'), work: path.join(job, 'work') };
  }
}
