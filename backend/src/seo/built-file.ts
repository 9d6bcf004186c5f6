import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { createGzip, gunzip } from 'node:zlib';
import type { Request, Response } from 'express';

/**
 * A file built once and kept gzipped (a 50,000-video sitemap is some 40 MB of XML, 2 to 4 MB gzipped), with the
 * ETags of both encodings.
 */
export interface BuiltFile {
  gzip: Buffer;
  etag: string;
  gzipEtag: string;
}

const gunzipAsync = promisify(gunzip);
/** How much text is handed to the compressor at a time. */
const CHUNK_CHARS = 256 * 1024;

/** Compresses `parts` as they come (never the whole text in one string), on libuv's threads. */
export async function buildFile(parts: Iterable<string>): Promise<BuiltFile> {
  const gzip = createGzip({ level: 6 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = once(gzip, 'end');
  const hash = createHash('sha256');
  let pending = '';
  const flush = async () => {
    hash.update(pending);
    const room = gzip.write(pending);
    pending = '';
    if (!room) await once(gzip, 'drain');
    // Other requests get their turn between chunks: a 50,000-video file is some 170 of them.
    else await new Promise((resolve) => setImmediate(resolve));
  };
  for (const part of parts) {
    pending += part;
    if (pending.length >= CHUNK_CHARS) await flush();
  }
  await flush();
  gzip.end();
  await ended;
  const tag = hash.digest('base64url').slice(0, 27);
  return { gzip: Buffer.concat(out), etag: `"${tag}"`, gzipEtag: `"${tag}-gz"` };
}

/**
 * Answers `file`: gzipped to a client that asks for gzip (crawlers do), plain otherwise; 304 when the client's
 * copy is current.
 */
export async function sendFile(req: Request, res: Response, file: BuiltFile, type: string, cacheControl: string): Promise<void> {
  const gzipped = req.headers['accept-encoding'] !== undefined && req.acceptsEncodings('gzip', 'identity') === 'gzip';
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', gzipped ? file.gzipEtag : file.etag);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  if (gzipped) res.setHeader('Content-Encoding', 'gzip');
  res.send(gzipped ? file.gzip : await gunzipAsync(file.gzip));
}
