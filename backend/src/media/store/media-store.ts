import type { Readable } from 'node:stream';
import { InvalidInputError, NotFoundError } from '../../common/errors/domain-errors';

/**
 * The media store's port (issue #32, point 1): where renditions, images and sources live, by key, whatever holds
 * them. Two drivers: `disk` (files under MEDIA_DIR, the default) and `s3` (objects in an S3-compatible bucket,
 * through the AWS SDK v3). docs/media.md › "Object storage" says which parts of the app go through it so far.
 *
 * A key is a relative POSIX path, the same on both drivers: `videos/{stem}/index.m3u8` (HLS: master and variant
 * playlists, segments), `thumbs/{stem}/poster.jpg` (images), `sources/{name}` (uploads, private). On disk it is
 * the file's path under MEDIA_DIR; in a bucket, the object's key after S3_PREFIX.
 */
export interface MediaStore {
  readonly driver: 'disk' | 's3';

  /** The object's size and version, or null when there is none (a folder on disk is none). */
  stat(key: string): Promise<StoredObject | null>;

  /**
   * The object's bytes as a stream, all of them or `range` (inclusive, as HTTP's `bytes=start-end`).
   * ObjectNotFoundError when there is none; RangeNotSatisfiableError when `range.start` is at or past its end.
   * The stream must be read to its end or destroyed.
   */
  read(key: string, range?: ByteRange): Promise<ObjectRead>;

  /** A small object's bytes (a playlist, an image); ObjectNotFoundError when there is none. */
  readBytes(key: string): Promise<Buffer>;

  /**
   * Writes the object whole: readers see the old object or the new one, never part of either. A stream is sent
   * in parts (a multipart upload in a bucket), with memory bounded whatever its length; when it fails, nothing
   * is left behind.
   */
  write(key: string, body: Buffer | string | Readable, options?: WriteOptions): Promise<void>;

  /** Writes a local file as the object (as `write`). */
  writeFile(key: string, file: string, options?: WriteOptions): Promise<void>;

  /** Copies the object into a local file (written to a temporary name and renamed); ObjectNotFoundError. */
  download(key: string, file: string): Promise<void>;

  /** Every object whose key starts with `prefix` (a folder's when it ends with `/`), in key order. */
  list(prefix: string): AsyncIterable<StoredObject>;

  /** Removes the object; none is fine. */
  remove(key: string): Promise<void>;

  /** Removes every object under `prefix` (which must end with `/`); answers how many went. */
  removeFolder(prefix: string): Promise<number>;

  /**
   * Replaces the objects under `prefix` (ending with `/`) with the files of the local folder `folder` (its
   * sub-folders too, keys by relative path), then removes what the folder did not have. Playlists (`.m3u8`) are
   * written after every other file, the master (`index.m3u8`) last, so that a reader never finds a playlist
   * naming a segment not yet there. The folder may be moved into place (disk, on the same file system): the
   * caller removes whatever is left of it.
   */
  publishFolder(folder: string, prefix: string): Promise<void>;
}

export interface StoredObject {
  key: string;
  size: number;
  /** Milliseconds since the epoch. */
  modifiedAt: number;
  /** Changes whenever the object is written again (an ETag in a bucket; size and time on disk). */
  version: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive; past the end reads to the end. */
  end: number;
}

export interface ObjectRead extends StoredObject {
  body: Readable;
  /** The bytes sent: the whole object, or the range clamped to its end. */
  range: ByteRange;
}

export interface WriteOptions {
  contentType?: string;
}

/** The store has no object under the key: 404. */
export class ObjectNotFoundError extends NotFoundError {
  constructor(key: string) {
    super(`No media object ${key}`);
  }
}

/** A byte range starting at or past an object's end: 416 where a route serves ranges. */
export class RangeNotSatisfiableError extends InvalidInputError {
  constructor(readonly size: number) {
    super(`The range starts past the object's ${size} bytes`);
  }
}

export const OUTSIDE_STORE = 'The path must stay inside the media store';

/** A key from outside leaves the media store (`..`, an absolute path, NUL, a backslash): 400. */
export class OutsideStoreError extends InvalidInputError {
  constructor() {
    super(OUTSIDE_STORE);
  }
}

/**
 * Keys and prefixes are relative POSIX paths of plain segments: none empty, none starting with a dot (`.`, `..`,
 * and the store's own temporary names: `.incoming`, `.poster.jpg.1a2b.tmp`), no NUL or `\`.
 */
const SEGMENT = /^[^/\\\0.][^/\\\0]*$/;

/** `key`, checked: OutsideStoreError unless it is a relative path of plain segments. */
export function checkKey(key: string): string {
  if (!key || key.split('/').some((s) => !SEGMENT.test(s))) throw new OutsideStoreError();
  return key;
}

/** A folder's prefix (`videos/abc/`), checked as a key, with its trailing slash. */
export function checkPrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new OutsideStoreError();
  checkKey(prefix.slice(0, -1));
  return prefix;
}

/** Publishing order: everything but playlists, then the variant playlists, then the master. */
export function publishOrder(relative: string): number {
  if (relative === 'index.m3u8' || relative.endsWith('/index.m3u8')) return 2;
  return relative.endsWith('.m3u8') ? 1 : 0;
}

/** The content type an object is stored with, by its extension (what the edge and the API send). */
export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/**
 * The lifetime an object is stored with (its `Cache-Control`), which the edge's cache follows
 * (docker/nginx/templates/media): a segment never changes under its name (a year, immutable), a playlist may be
 * written again (a few seconds), an image may be replaced under its name (ten minutes); sources are never served.
 */
export function cacheControlOf(key: string): string {
  if (key.startsWith('sources/')) return 'private, no-store';
  if (/\.m3u8$/i.test(key)) return 'public, max-age=10';
  if (key.startsWith('videos/') && /\.(?:ts|m4s|mp4|aac)$/i.test(key)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=600';
}

const CONTENT_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
  key: 'application/octet-stream',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  png: 'image/png',
  vtt: 'text/vtt',
  json: 'application/json',
};
