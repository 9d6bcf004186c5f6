import express, { type NextFunction, type Request, type Response } from 'express';
import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { parseImageVariant } from '@hunktube/shared';
import { type ImageVariants, ImageVariantsBusyError } from './image-variants';
import { checkSignature, parseSignedPath } from './signing';
import { StorageService } from './storage.service';

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

/**
 * The embedded server's media (the container stack's nginx does the same): `/s/{token},{expires}/videos/...`
 * checked like nginx `secure_link` (403 bad token or another folder, 410 expired), and `/thumbs/...` public
 * with long cache lifetimes. Byte ranges, ETags and HEAD come from Express's `sendFile`.
 */
export function mediaServing(config: Pick<AppConfig, 'mediaDir' | 'mediaSigningKey'>, images?: ImageVariants) {
  const storage = new StorageService(config);
  const { videosRoot, thumbsRoot } = storage;
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
    const file = path.join(videosRoot, signed.folder.slice('/videos/'.length), signed.file);
    void send(storage, res, videosRoot, file, 'private, max-age=3600');
  });

  router.get('/thumbs/{*rest}', (req: Request, res: Response) => {
    let relative: string;
    try {
      relative = decodeURIComponent(req.path.slice('/thumbs/'.length));
    } catch {
      return fail(res, 404, 'Not found');
    }
    if (relative.split('/').some((s) => s === '..' || s === '.' || s === '') || relative.includes('\0')) return fail(res, 404, 'Not found');
    const file = path.join(thumbsRoot, relative);
    if (images && parseImageVariant(relative)) void sendCopy(storage, images, res, relative, file);
    else void send(storage, res, thumbsRoot, file, THUMBS_CACHE);
  });

  // Everything else (the API, the pages) goes straight on: a sub-router's matching on every API read cost more
  // than this one check.
  return (req: Request, res: Response, next: NextFunction) =>
    req.path.startsWith('/s/') || req.path.startsWith('/thumbs/') ? router(req, res, next) : next();
}

const THUMBS_CACHE = 'public, max-age=2592000';

/**
 * A WebP copy of a stored image (`@hunktube/shared` image variants): from disk, or made from its original on
 * this first request (nginx in the stack sends such misses here too). An original that cannot be converted is
 * sent as it is, for an hour: browsers read an image by its bytes, whatever its URL says.
 */
async function sendCopy(storage: StorageService, images: ImageVariants, res: Response, relative: string, file: string): Promise<void> {
  await send(storage, res, storage.thumbsRoot, file, THUMBS_CACHE, async () => {
    let ensured;
    try {
      ensured = await images.ensure(relative);
    } catch (error) {
      // The original went away meanwhile: nothing to send. Otherwise (too many being made, a full disk): later.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return void fail(res, 404, 'Not found');
      res.setHeader('Retry-After', '5');
      fail(res, 503, error instanceof ImageVariantsBusyError ? error.message : 'This image cannot be prepared right now; try again shortly');
      return;
    }
    if (!ensured || ensured.kind === 'none') fail(res, 404, 'Not found');
    else await send(storage, res, storage.thumbsRoot, ensured.file, ensured.kind === 'copy' ? THUMBS_CACHE : 'public, max-age=3600');
  });
}

/** Sends a file of the store; when there is none to send, `missing` answers (404 by default). */
async function send(
  storage: StorageService,
  res: Response,
  root: string,
  file: string,
  cacheControl: string,
  missing: () => Promise<void> | void = () => void fail(res, 404, 'Not found'),
): Promise<void> {
  const type = MEDIA_TYPES[path.extname(file).toLowerCase()];
  // The real path must stay inside the root: no symlink out of the store.
  const real = type ? await storage.servable(root, file) : null;
  if (!type || !real) {
    await missing();
    return;
  }
  res.setHeader('Content-Type', type);
  res.sendFile(real, { headers: { 'Cache-Control': cacheControl }, dotfiles: 'deny', lastModified: true }, (error) => {
    if (!error || res.headersSent) return;
    res.removeHeader('Content-Type'); // the file's, set above: the answer is now the contract's JSON
    // A range past the end of the file: 416 with `Content-Range: bytes */{size}` (set by send), as nginx answers.
    if ((error as { status?: number }).status === 416) fail(res, 416, 'Range not satisfiable');
    else fail(res, 404, 'Not found');
  });
}
