import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { clientNetworkOf } from '../utils/client-ip';
import { isApiPath, PRIVATE_CACHE_CONTROL } from './http-caching';

export const READ_WINDOW_MS = 60_000;
/** Networks counted at once (a few dozen bytes each); past it the least recently seen go, and start over. */
export const READ_BUDGET_MAX_NETWORKS = 100_000;
export const READS_REFUSED = 'Too many requests from your network, please try again in a minute';

/** Reads that cost next to nothing, or that players and health checks must always get: never counted. */
const FREE = /^\/(?:s\/|thumbs\/|assets\/|api\/health$|robots\.txt$|sitemap\.xml$|sitemaps\/)/;

/**
 * Reads (GET and HEAD of pages and of the API) per network per minute, in this process (docs/security.md › "Renders
 * no one can force"): RATE_LIMIT_READ, generous (3,000 a minute by default, 50 a second: a household or an office behind
 * one address browsing at once stays far below it), so that one network cannot keep a process busy with reads
 * and renders. Media, the built web client's files, robots.txt, sitemaps and `/api/health` are never counted;
 * writes have their own limits (RateLimitGuard). Counted in the process, not in Redis: a Redis round trip per
 * read would cost more than most reads, and the stack's nginx limits each address in front of every process.
 * Past the budget: 429 with Retry-After, in the contract's shape on the API, as a short page elsewhere.
 */
export function readBudget(limitPerMinute: number, isBuiltFile: (path: string) => boolean = () => false) {
  const counts = new LRUCache<string, { count: number; until: number }>({ max: READ_BUDGET_MAX_NETWORKS });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (limitPerMinute <= 0 || (req.method !== 'GET' && req.method !== 'HEAD') || FREE.test(req.path) || isBuiltFile(req.path)) return next();
    const network = clientNetworkOf(req);
    const now = Date.now();
    let entry = counts.get(network);
    if (!entry || entry.until <= now) {
      entry = { count: 0, until: now + READ_WINDOW_MS };
      counts.set(network, entry);
    }
    if (++entry.count <= limitPerMinute) return next();
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil((entry.until - now) / 1000))));
    res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    if (isApiPath(req.path)) {
      res.status(429).json({ error: READS_REFUSED, statusCode: 429 });
      return;
    }
    res.status(429).type('html').send(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Too many requests</title><p>${READS_REFUSED}.</p></html>`);
  };
}
