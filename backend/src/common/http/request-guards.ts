import type { NextFunction, Request, Response } from 'express';
import { isApiPath } from './http-caching';

/** The routes that take a multipart body (a file), as paths (`:id` a path segment); every other write takes JSON or nothing. */
export const MULTIPART_ROUTES = ['/api/admin/videos', '/api/admin/update-thumbnail', '/api/admin/videos/:id/captions'];
const MULTIPART_PATHS = MULTIPART_ROUTES.map((route) => new RegExp(`^${route.replace(/:[a-z]+/g, '[^/]+')}$`));
const takesMultipart = (path: string) => MULTIPART_PATHS.some((pattern) => pattern.test(path));

/** How deep a JSON body may nest: the contract's deepest body is 3 levels; class-transformer recurses per level. */
export const MAX_JSON_DEPTH = 32;

export const CROSS_SITE_REFUSED = 'Cross-site request refused: this API takes writes only from its own pages';
export const JSON_ONLY = 'Send the body as JSON (Content-Type: application/json)';
export const JSON_TOO_DEEP = `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`;
export const JSON_LONE_SURROGATE = 'The JSON body has a string with a lone UTF-16 surrogate (not valid Unicode)';
export const NUL_REFUSED = 'Text must not contain the NUL character (\\u0000 or %00)';
/** Keys that name an object's prototype machinery: refused as any unknown field is, wherever they appear. */
export const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const unknownProperty = (key: string) => `property ${key} should not exist`;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write, on any path: what the guards look at. They used to look only at paths starting `/api/`, letter for
 * letter, while the router also took `/API/…`, so a sibling subdomain's page wrote through that spelling (issue #29).
 * Nothing but the API takes a write, so no path is left out, whatever its spelling; and the API's routes are
 * case-sensitive (app.factory.ts), so an API path has one spelling only.
 */
const isWrite = (req: Request) => !SAFE_METHODS.has(req.method);

/**
 * The path as the router matches it, with at most one trailing slash dropped (Express's routes are not strict):
 * what the upload routes are looked up by.
 */
const routedPath = (req: Request) => (req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path);

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
  if (!isWrite(req)) return next();
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

/**
 * Answers 404, in the contract's shape, a path that only looks like the API's: `/API/…`, `/%61pi/…`, `//api/…`,
 * `/./api/…` (isApiPath). The API's routes are case-sensitive and match the path as sent, so none of these reaches a
 * route; this says so in JSON, where Express's own last handler would answer an HTML page, and before anything
 * else (a cache, a guard keyed on the path) can take it for the API.
 */
export function oneApiSpelling(req: Request, res: Response, next: NextFunction): void {
  if (req.path.startsWith('/api/') || req.path === '/api' || !isApiPath(req.path)) return next();
  refuse(res, 404, `Cannot ${req.method} ${req.path}`);
}

/** The request carries a body (a length over 0, or a chunked one). */
export const hasBody = (req: Request): boolean =>
  Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * Writes carry JSON, or a multipart file on the upload routes, or nothing: no form-encoded or text bodies, which
 * a page on another site can send without a preflight.
 */
export function jsonOnlyGuard(req: Request, res: Response, next: NextFunction): void {
  if (!isWrite(req)) return next();
  if (!hasBody(req)) return next();
  const type = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || (type === 'multipart/form-data' && takesMultipart(routedPath(req)))) return next();
  refuse(res, 415, JSON_ONLY);
}

/** The texts of the 400s raised while the JSON body is read, which the exceptions filter answers as they are. */
export const isBodyErrorText = (message: unknown): boolean =>
  message === JSON_TOO_DEEP || message === JSON_LONE_SURROGATE || message === NUL_REFUSED || [...PROTOTYPE_KEYS].some((key) => message === unknownProperty(key));

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

/**
 * JSON.parse's reviver: a lone surrogate (`"\ud800"`) in a key or string, or a NUL character (which PostgreSQL's
 * text cannot hold: it answered SQLSTATE 22021), is a 400, not text for the database; `__proto__`, `constructor`
 * and `prototype` keys are refused as unknown fields are (JSON.parse makes them own keys, which the DTOs'
 * whitelist did not see).
 */
export function wellFormedReviver(key: string, value: unknown): unknown {
  if (!key.isWellFormed() || (typeof value === 'string' && !value.isWellFormed())) throw bodyError(JSON_LONE_SURROGATE);
  if (key.includes('\0') || (typeof value === 'string' && value.includes('\0'))) throw bodyError(NUL_REFUSED);
  if (PROTOTYPE_KEYS.has(key)) throw bodyError(unknownProperty(key));
  return value;
}

/** A NUL character in the path or query string (`%00`): 400 before anything reads them (see wellFormedReviver). */
export function noNulCharacters(req: Request, res: Response, next: NextFunction): void {
  if (!req.url.includes('%00') && !req.url.includes('\0')) return next();
  refuse(res, 400, NUL_REFUSED);
}
