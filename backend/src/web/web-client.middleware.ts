import { HttpException } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../common/errors/domain-errors';
import { PRIVATE_CACHE_CONTROL } from '../common/http/http-caching';
import { type PagesService } from './pages.service';
import { RENDER_RETRY_AFTER_SECONDS } from './render-pool';
import { type BuiltAsset, type Coding, ENCODINGS } from './web-build';

/** Vite's hashed bundles never change under one name. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Other files of the build (favicon…) keep their names from one build to the next: revalidated by ETag. */
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** Paths that are the API's, the media routes' or the crawlers' files (seo/), never the web client's. */
const NOT_PAGES = /^\/(?:api(?:\/|$)|s\/|thumbs\/|robots\.txt$|sitemap\.xml$|sitemaps\/)/;

/**
 * The web client, before Nest's routing (docs/web-client.md › "Delivery"): a file of the build (precompressed
 * copy when the client takes one, hashed bundles immutable), else a page: the shell with that page's head and
 * the bootstrap block (PagesService). `/assets/…` that is not in the build goes on to a 404, never the shell.
 * Without a build everything goes on to Nest.
 */
export function webClientMiddleware(pages: PagesService): RequestHandler {
  const build = pages.built;
  if (!build) return (_req, _res, next) => next();
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_PAGES.test(req.path)) return next();
    const asset = build.assets.get(req.path);
    if (asset) return sendAsset(req, res, asset, next);
    if (req.path.startsWith('/assets/')) return next();
    pages.page(req).then(
      (page) => {
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.setHeader('Cache-Control', page.status === 503 ? PRIVATE_CACHE_CONTROL : page.cacheControl);
        // The line of renders was full: the shell, for the browser to draw, and a word to crawlers to come back.
        if (page.status === 503) res.status(503).setHeader('Retry-After', String(RENDER_RETRY_AFTER_SECONDS));
        // Express's strong ETag of the body: an unchanged page revalidates with a 304.
        res.send(page.html);
      },
      (error: unknown) => {
        if (error instanceof DomainError) return void res.status(error.status).json({ error: error.message, statusCode: error.status });
        if (!(error instanceof HttpException)) return next(error);
        res.status(error.getStatus()).json({ error: error.message, statusCode: error.getStatus() });
      },
    );
  };
}

function sendAsset(req: Request, res: Response, asset: BuiltAsset, next: NextFunction): void {
  const codings = ENCODINGS.map((e) => e.coding).filter((c) => asset.encoded[c]);
  const coding = codings.length ? preferredCoding(req.headers['accept-encoding'], codings) : null;
  if (codings.length) res.vary('Accept-Encoding');
  res.setHeader('Cache-Control', asset.immutable ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL);
  // The original's type for every copy (send would name a .br file application/octet-stream).
  res.type(asset.extension);
  if (coding) res.setHeader('Content-Encoding', coding);
  const file = coding ? (asset.encoded[coding] as string) : asset.file;
  // A byte range of a compressed copy means nothing to a client that asked for the file: whole copies only.
  res.sendFile(file, { cacheControl: false, acceptRanges: !coding, dotfiles: 'allow' }, (error) => {
    if (error && !res.headersSent) next(error);
  });
}

/**
 * The first of `available` (in the server's order of preference: brotli, then gzip) that Accept-Encoding takes
 * (by name or `*`, with a q above 0); null for none, or without the header (the file as it is).
 */
export function preferredCoding(header: string | undefined, available: Coding[]): Coding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return available.find((coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0) ?? null;
}
