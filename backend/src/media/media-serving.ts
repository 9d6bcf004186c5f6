import { Logger } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { parseImageVariant } from '@hunktube/shared';
import { type ImageVariants, ImageVariantsBusyError } from './image-variants';
import { checkSignature, parseSignedPath } from './signing';
import { KEY_FILE } from './hls-encryption';
import type { HlsKeysService } from './hls-keys.service';
import { isDependencyDown } from '../common/errors/dependency-errors';
import type { StorageService } from './storage.service';
import { checkKey, ObjectNotFoundError, OutsideStoreError } from './store/media-store';
import { pipeline } from 'node:stream/promises';
import rangeParser from 'range-parser';

/** Content types the player needs, whatever the platform's MIME table says. */
export const MEDIA_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.mp4': 'video/mp4',
  '.m4s': 'video/iso.segment',
  '.key': 'application/octet-stream',
  '.vtt': 'text/vtt; charset=utf-8',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
};

const fail = (res: Response, statusCode: number, error: string) => res.status(statusCode).json({ error, statusCode });

/** The paths media is served at: signed HLS (`/s/`) and the public thumbnails and previews (`/thumbs/`). */
export const MEDIA_PATH = /^\/(?:s|thumbs)\//;

/**
 * The embedded server's media (the container stack's nginx does the same): `/s/{token},{expires}/videos/...`
 * checked like nginx `secure_link` (403 bad token or another folder, 410 expired), and `/thumbs/...` public
 * with long cache lifetimes. From the disk store, byte ranges, ETags and HEAD come from Express's `sendFile`;
 * from a bucket, the object is streamed with the same (sendObject).
 */
export function mediaServing(config: Pick<AppConfig, 'mediaSigningKey'>, storage: StorageService, images?: ImageVariants, keys?: Pick<HlsKeysService, 'find'>) {
  const router = express.Router();

  // Only the media paths: the API's answers and the HTML pages are this site's alone.
  router.use(['/s', '/thumbs'], (_req: Request, res: Response, next: NextFunction) => {
    // Media may be fetched from another origin (a separate media host): it is public or token-protected.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    next();
  });

  router.get('/s/{*rest}', (req: Request, res: Response) => {
    const signed = parseSignedPath(req.path.slice('/s'.length));
    if (!signed) return fail(res, 403, 'Invalid media link');
    const check = checkSignature(signed.token, signed.expires, signed.folder, config.mediaSigningKey, Math.floor(Date.now() / 1000));
    if (check === 'invalid') return fail(res, 403, 'Invalid media link');
    if (check === 'expired') return fail(res, 410, 'This media link has expired');
    const keyFile = KEY_FILE.exec(signed.file);
    if (keyFile) return void sendKey(keys, res, signed.folder.slice('/videos/'.length, -1), keyFile[1]);
    void send(storage, req, res, `${signed.folder.slice(1)}${signed.file}`, signedMediaCacheControl(signed.file));
  });

  router.get('/thumbs/{*rest}', (req: Request, res: Response) => {
    let relative: string;
    try {
      relative = decodeURIComponent(req.path.slice('/thumbs/'.length));
    } catch {
      return fail(res, 404, 'Not found');
    }
    if (relative.split('/').some((s) => s === '..' || s === '.' || s === '') || relative.includes('\0')) return fail(res, 404, 'Not found');
    const key = `thumbs/${relative}`;
    if (images && parseImageVariant(relative)) void sendCopy(storage, images, req, res, relative, key);
    else void send(storage, req, res, key, THUMBS_CACHE);
  });

  // Everything else (the API, the pages) goes straight on: a sub-router's matching on every API read cost more
  // than this one check.
  return (req: Request, res: Response, next: NextFunction) => (MEDIA_PATH.test(req.path) ? router(req, res, next) : next());
}

const THUMBS_CACHE = 'public, max-age=2592000';

/**
 * An encrypted video's key (`{keyId}.key` in its signed folder; nginx sends these here, never to the bucket): the
 * 16 bytes to the holder of the folder's token, kept by no cache. A key of another folder, or none: 404.
 */
const keyLogger = new Logger('HlsKeys');

async function sendKey(keys: Pick<HlsKeysService, 'find'> | undefined, res: Response, stem: string, keyId: string): Promise<void> {
  let key: Buffer | null;
  try {
    key = keys ? await keys.find(stem, keyId) : null;
  } catch (error) {
    // The database out of reach: later. A key that does not open (HLS_KEY_SECRET changed): said in the log.
    if (isDependencyDown(error)) res.setHeader('Retry-After', '5');
    else keyLogger.error(`videos/${stem}: key ${keyId} cannot be opened (was HLS_KEY_SECRET or JWT_SECRET changed?): ${(error as Error).message}`);
    return void fail(res, 503, 'The key of this video cannot be read right now; try again shortly');
  }
  if (!key) return void fail(res, 404, 'Not found');
  res.status(200);
  res.setHeader('Content-Type', 'application/octet-stream');
  res.setHeader('Cache-Control', 'private, no-store');
  res.end(key);
}

/**
 * A signed file's lifetime in the viewer's browser (nginx's map says the same): a playlist a few seconds (it is
 * written again when a video is re-encoded or re-keyed), everything else a year, immutable (a segment never
 * changes under its name). Private: the token is in the URL, and no shared cache is to keep it.
 */
export function signedMediaCacheControl(file: string): string {
  return /\.m3u8$/i.test(file) ? 'private, max-age=10' : 'private, max-age=31536000, immutable';
}

/**
 * A WebP copy of a stored image (`@hunktube/shared` image variants): from the store, or made from its original
 * on this first request (nginx in the stack sends such misses here too). An original that cannot be converted
 * is sent as it is, for an hour: browsers read an image by its bytes, whatever its URL says.
 */
async function sendCopy(storage: StorageService, images: ImageVariants, req: Request, res: Response, relative: string, key: string): Promise<void> {
  await send(storage, req, res, key, THUMBS_CACHE, async () => {
    let ensured;
    try {
      ensured = await images.ensure(relative);
    } catch (error) {
      // The original went away meanwhile: nothing to send. Otherwise (too many being made, a full disk): later.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof OutsideStoreError) return void fail(res, 404, 'Not found');
      res.setHeader('Retry-After', '5');
      fail(res, 503, error instanceof ImageVariantsBusyError ? error.message : 'This image cannot be prepared right now; try again shortly');
      return;
    }
    if (!ensured || ensured.kind === 'none') fail(res, 404, 'Not found');
    else await send(storage, req, res, ensured.key, ensured.kind === 'copy' ? THUMBS_CACHE : 'public, max-age=3600');
  });
}

/** Sends an object of the store; when there is none to send, `missing` answers (404 by default). */
async function send(
  storage: StorageService,
  req: Request,
  res: Response,
  key: string,
  cacheControl: string,
  missing: () => Promise<void> | void = () => void fail(res, 404, 'Not found'),
): Promise<void> {
  const type = MEDIA_TYPES[path.posix.extname(key).toLowerCase()];
  let checked: string;
  try {
    checked = checkKey(key);
  } catch {
    return void (await missing());
  }
  if (!type) return void (await missing());
  if ((await storage.driverOf(checked).catch(() => 's3' as const)) === 's3') return sendObject(storage, req, res, checked, type, cacheControl, missing);
  // The real path must stay inside the store: no symlink out of it.
  const real = await storage.diskFile(checked).catch(() => null);
  if (!real) return void (await missing());
  res.setHeader('Content-Type', type);
  res.sendFile(real, { headers: { 'Cache-Control': cacheControl }, dotfiles: 'deny', lastModified: true }, (error) => {
    if (!error || res.headersSent) return;
    res.removeHeader('Content-Type'); // the file's, set above: the answer is now the contract's JSON
    // A range past the end of the file: 416 with `Content-Range: bytes */{size}` (set by send), as nginx answers.
    if ((error as { status?: number }).status === 416) fail(res, 416, 'Range not satisfiable');
    else fail(res, 404, 'Not found');
  });
}

/**
 * Streams an object from the bucket as `sendFile` sends a file: `Accept-Ranges`, one byte range (`bytes=a-b`,
 * `a-`, `-n`; 206, or 416 with a `Content-Range` naming the size), `ETag` and `Last-Modified` with
 * `If-None-Match` answered 304, HEAD without a body. A bucket that cannot be reached is a 503 with `Retry-After`, never a 500.
 */
async function sendObject(
  storage: StorageService,
  req: Request,
  res: Response,
  key: string,
  type: string,
  cacheControl: string,
  missing: () => Promise<void> | void,
): Promise<void> {
  const stat = await storage.store.stat(key).catch(() => undefined);
  if (stat === undefined) {
    res.setHeader('Retry-After', '5');
    return void fail(res, 503, 'The media store cannot be reached right now; try again shortly');
  }
  if (!stat) return void (await missing());
  const etag = stat.version.startsWith('"') ? stat.version : `"${stat.version}"`;
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', new Date(stat.modifiedAt).toUTCString());
  if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) return void res.status(304).end();

  const range = byteRange(req.headers.range, stat.size);
  if (range === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${stat.size}`);
    return void fail(res, 416, 'Range not satisfiable');
  }
  const bytes = range ?? (stat.size > 0 ? { start: 0, end: stat.size - 1 } : null);
  res.status(range ? 206 : 200);
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', String(bytes ? bytes.end - bytes.start + 1 : 0));
  if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`);
  if (req.method === 'HEAD' || !bytes) return void res.end();
  let read;
  try {
    read = await storage.store.read(key, bytes);
  } catch (error) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.removeHeader('Content-Range');
    if (error instanceof ObjectNotFoundError) return void (await missing());
    res.setHeader('Retry-After', '5');
    return void fail(res, 503, 'The media store cannot be reached right now; try again shortly');
  }
  // A viewer who goes away ends the read from the bucket too.
  await pipeline(read.body, res).catch(() => read.body.destroy());
}

/**
 * The byte range to send of an object of `size` bytes, read as Express's `send` reads a file's (the same
 * range-parser, ranges combined), so that both stores answer a header alike: null for the whole object (no
 * header, another unit, a malformed header, several ranges), 'unsatisfiable' for a 416.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header || !/^ *bytes=/.test(header)) return null;
  const ranges = rangeParser(size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.length !== 1) return null;
  return { start: ranges[0].start, end: ranges[0].end };
}
