import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/*
 * An ad server for the browser tests (docs/ads.md › "Web client"): the VAST fixtures beside this file (the IAB's
 * VAST 4 samples' shapes, `{{ORIGIN}}` filled with this server's origin), creatives made by ffmpeg when it starts,
 * and a tracking endpoint that records every hit, so that a test can see each tracking URL fired exactly once.
 *
 *   GET /vast/{fixture}.xml     a fixture (inline-linear, inline-hls, wrapper-1, wrapper-2, no-fill, error-404, broken, non-linear)
 *   GET /vast/slow.xml?ms=N     the inline ad after N ms (10 s by default): a tag slower than the player waits for
 *   GET /media/ad.mp4           a 6-second H.264/AAC creative, with byte ranges
 *   GET /media/hls/ad.m3u8      the same as HLS (2-second MPEG-TS segments beside it)
 *   GET /media/broken.mp4       bytes that are no video, as video/mp4
 *   GET /media/missing.mp4      404
 *   GET /media/pause.png        a 300×250 image (non-linear ads, banners)
 *   GET /track/...              recorded, answered with a 1×1 GIF
 *   GET /landing                the advertiser's page
 */

const FIXTURES = new URL('./fixtures/', import.meta.url);
// The same ffmpeg build the app uses (the backend's npm dependency), as support/media.ts finds it.
const ffmpeg: string = process.env.FFMPEG_PATH || createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg').path;
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export interface VastServer {
  origin: string;
  /** How many times each tracking path (`/track/inline/start`) was hit since the last reset. */
  hits(): Record<string, number>;
  /** The tracking hits under `prefix` (`/track/inline/`), with their queries, in order. */
  tracked(prefix: string): URL[];
  /** The VAST documents asked for since the last reset, with their queries. */
  requested(): URL[];
  reset(): void;
  close(): Promise<void>;
}

/** Makes the creatives with ffmpeg: the linear ad's MP4, the same as HLS, and the pause image. */
function makeCreatives(dir: string): void {
  const run = (...args: string[]) => execFileSync(ffmpeg, ['-y', '-loglevel', 'error', ...args]);
  run(
    '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '6',
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart',
    path.join(dir, 'ad.mp4'),
  );
  mkdirSync(path.join(dir, 'hls'));
  run('-i', path.join(dir, 'ad.mp4'), '-c', 'copy', '-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', path.join(dir, 'hls', 'ad.m3u8'));
  run('-f', 'lavfi', '-i', 'color=c=deeppink:s=300x250', '-frames:v', '1', path.join(dir, 'pause.png'));
}

/** Sends a file, honouring one byte range (the browser asks for media by ranges). */
function sendFile(req: IncomingMessage, res: ServerResponse, file: string, type: string): void {
  const body = readFileSync(file);
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  const headers = { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Access-Control-Allow-Origin': '*' };
  if (!range) {
    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    res.end(body);
    return;
  }
  const start = range[1] ? Number(range[1]) : body.length - Number(range[2]);
  const end = range[1] && range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
  res.writeHead(206, { ...headers, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${body.length}` });
  res.end(body.subarray(start, end + 1));
}

export async function startVastServer(): Promise<VastServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hunktube-e2e-vast-'));
  makeCreatives(dir);
  const fixtures = new Set(readdirSync(FIXTURES).map((name) => name.replace(/\.xml$/, '')));
  const hits: URL[] = [];
  const asked: URL[] = [];
  const sockets = new Set<Socket>();
  let origin = '';

  const vast = (name: string) => readFileSync(new URL(`${name}.xml`, FIXTURES), 'utf8').replaceAll('{{ORIGIN}}', origin);
  const sendXml = (res: ServerResponse, text: string) => {
    // VAST is fetched across origins: the player's page reads it with CORS.
    res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
    res.end(text);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const fixture = /^\/vast\/([a-z0-9-]+)\.xml$/.exec(url.pathname)?.[1];
    if (fixture) asked.push(url);
    if (fixture === 'slow') {
      const timer = setTimeout(() => sendXml(res, vast('inline-linear')), Number(url.searchParams.get('ms') ?? 10_000));
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (fixture && fixtures.has(fixture)) return sendXml(res, vast(fixture));
    if (url.pathname.startsWith('/track/')) {
      hits.push(url);
      res.writeHead(200, { 'Content-Type': 'image/gif', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' });
      res.end(GIF);
      return;
    }
    if (url.pathname === '/media/ad.mp4') return sendFile(req, res, path.join(dir, 'ad.mp4'), 'video/mp4');
    const segment = /^\/media\/hls\/(ad\.m3u8|ad\d+\.ts)$/.exec(url.pathname)?.[1];
    if (segment) return sendFile(req, res, path.join(dir, 'hls', segment), segment.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t');
    if (url.pathname === '/media/pause.png') return sendFile(req, res, path.join(dir, 'pause.png'), 'image/png');
    if (url.pathname === '/media/broken.mp4') {
      res.writeHead(200, { 'Content-Type': 'video/mp4', 'Access-Control-Allow-Origin': '*' });
      res.end(randomBytes(64 * 1024));
      return;
    }
    if (url.pathname === '/landing') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>The advertiser</title><h1>The advertiser’s page</h1>');
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' });
    res.end('not found');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    hits: () => {
      const counts: Record<string, number> = {};
      for (const hit of hits) counts[hit.pathname] = (counts[hit.pathname] ?? 0) + 1;
      return counts;
    },
    tracked: (prefix) => hits.filter((hit) => hit.pathname.startsWith(prefix)),
    requested: () => [...asked],
    reset: () => {
      hits.length = 0;
      asked.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        if (statSync(dir, { throwIfNoEntry: false })) rmSync(dir, { recursive: true, force: true });
      }),
  };
}
