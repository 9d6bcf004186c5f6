import type { NextFunction, Request, Response } from 'express';

/** The routes that take a multipart body (a file); every other write takes JSON or nothing. */
export const MULTIPART_ROUTES = new Set(['/api/admin/videos', '/api/admin/update-thumbnail']);

/** How deep a JSON body may nest: the contract's deepest body is 3 levels; class-transformer recurses per level. */
export const MAX_JSON_DEPTH = 32;

export const CROSS_SITE_REFUSED = 'Cross-site request refused: this API takes writes only from its own pages';
export const JSON_ONLY = 'Send the body as JSON (Content-Type: application/json)';
export const JSON_TOO_DEEP = `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`;
export const JSON_LONE_SURROGATE = 'The JSON body has a string with a lone UTF-16 surrogate (not valid Unicode)';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A write to the API: what the guards look at (reads and the media and page routes pass). */
const isApiWrite = (req: Request) => !SAFE_METHODS.has(req.method) && req.path.startsWith('/api/');

const refuse = (res: Response, statusCode: number, error: string) => res.status(statusCode).json({ error, statusCode });

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Refuses writes to the API that a browser sends from another site (CSRF, login CSRF included): the browser says
 * so in `Sec-Fetch-Site` (anything but same-origin, or none for a typed address), or, in browsers without it,
 * in an `Origin` whose host is not the one the request was sent to. Clients that are not browsers send neither
 * and are not affected; a bearer token cannot be sent cross-site without CORS, which the API does not allow,
 * but the check does not rely on that.
 */
export function crossSiteGuard(req: Request, res: Response, next: NextFunction): void {
  if (!isApiWrite(req)) return next();
  const fetchSite = req.get('sec-fetch-site');
  if (fetchSite !== undefined) {
    if (fetchSite === 'same-origin' || fetchSite === 'none') return next();
    refuse(res, 403, CROSS_SITE_REFUSED);
    return;
  }
  const origin = req.get('origin');
  if (origin !== undefined) {
    const host = (req.get('x-forwarded-host') && req.app.get('trust proxy') ? req.get('x-forwarded-host') : req.get('host'))?.toLowerCase();
    if (origin === 'null' || hostOf(origin) !== host) {
      refuse(res, 403, CROSS_SITE_REFUSED);
      return;
    }
  }
  next();
}

/** The request carries a body (a length over 0, or a chunked one). */
export const hasBody = (req: Request): boolean =>
  Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * Writes carry JSON, or a multipart file on the upload routes, or nothing: no form-encoded or text bodies, which
 * a page on another site can send without a preflight.
 */
export function jsonOnlyGuard(req: Request, res: Response, next: NextFunction): void {
  if (!isApiWrite(req)) return next();
  if (!hasBody(req)) return next();
  const type = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || (type === 'multipart/form-data' && MULTIPART_ROUTES.has(req.path))) return next();
  refuse(res, 415, JSON_ONLY);
}

/** A 400 raised while the JSON body is read, before anything else looks at it. */
function bodyError(message: string): Error & { status: number; expose: boolean } {
  return Object.assign(new Error(message), { status: 400, expose: true });
}

/**
 * The JSON body's nesting depth, counted on the raw text before it is parsed (a deeply nested body would
 * otherwise overflow the validation's recursion): throws a 400 past MAX_JSON_DEPTH.
 */
export function checkJsonDepth(buf: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw bodyError(JSON_TOO_DEEP);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** JSON.parse's reviver: a lone surrogate (`"\ud800"`) in a key or string is a 400, not text for the database. */
export function wellFormedReviver(key: string, value: unknown): unknown {
  if (!key.isWellFormed() || (typeof value === 'string' && !value.isWellFormed())) throw bodyError(JSON_LONE_SURROGATE);
  return value;
}
