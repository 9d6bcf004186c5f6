import compression from 'compression';
import type { RequestHandler } from 'express';

/** Media (segments, images, ranges of them) is sent as stored; nginx serves it in the stack. */
const MEDIA = /^\/(?:s|thumbs)\//;

/**
 * Compresses what the server builds per request, brotli first, then gzip (the `compression` middleware): API
 * JSON and the pages' HTML over 1 kB. Files that were compressed beforehand (the web client's bundles, the
 * sitemaps) carry their Content-Encoding and are left alone, as are media and range requests. GETs that name an
 * encoding only: the writes' answers are a few bytes and the counting routes are the hottest, and a client that
 * takes none (the benchmarks' load generator, curl) costs nothing more than before (docs/benchmarks.md).
 */
export function compressedAnswers(): RequestHandler {
  const compress = compression({
    threshold: 1024,
    filter: (req, res) => !req.headers.range && !MEDIA.test(req.path) && compression.filter(req, res),
  });
  return (req, res, next) => (req.method === 'GET' && req.headers['accept-encoding'] ? compress(req, res, next) : next());
}
