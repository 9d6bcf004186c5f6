import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { Observable, tap } from 'rxjs';
import { isMemberAnswer } from './per-member';
import { STALE_HEADER } from './stale-reads';

/** Browsers and nginx may reuse a public catalogue answer this long, and serve it stale while revalidating. */
export const PUBLIC_MAX_AGE_SECONDS = 5;
export const PUBLIC_STALE_WHILE_REVALIDATE_SECONDS = 30;
export const PUBLIC_CACHE_CONTROL = `public, max-age=${PUBLIC_MAX_AGE_SECONDS}, stale-while-revalidate=${PUBLIC_STALE_WHILE_REVALIDATE_SECONDS}`;
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

const PUBLIC_CACHE = 'http:public-cache';

/** Marks a GET whose answer is the same for everyone (the catalogue): shared caches may keep it briefly. */
export const PublicCache = () => SetMetadata(PUBLIC_CACHE, true);

/** The handler is a `@PublicCache()` route. */
export const isPublicCache = (reflector: Reflector, context: ExecutionContext): boolean =>
  reflector.getAllAndOverride<boolean>(PUBLIC_CACHE, [context.getHandler(), context.getClass()]) ?? false;

/**
 * Every API answer starts as `private, no-store`: what depends on who asks (auth, lists, playlists, admin) and
 * every error stays out of shared caches unless a route says otherwise. ETags (strong, from the body) and 304s
 * are Express's own (`app.set('etag', 'strong')`).
 */
export function privateByDefault(req: Request, res: Response, next: NextFunction): void {
  if (isApiPath(req.path)) res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
  next();
}

/**
 * A path that is the API's or could be taken for it by something in between: `/api/` in any letter case, after
 * percent-decoding and with repeated slashes and `.` segments folded. The router answers only the exact spelling;
 * the others get a 404, which is kept out of shared caches all the same.
 */
export function isApiPath(path: string): boolean {
  if (path.startsWith('/api/')) return true;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: judged as written.
  }
  return /^\/api(?:\/|$)/i.test(decoded.replace(/\/(?:\.\/)+/g, '/').replace(/\/{2,}/g, '/').replace(/^\/\.(?=\/|$)/, ''));
}

/** Turns a successful answer of a `@PublicCache()` GET public, briefly. */
@Injectable()
export class PublicCacheInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const isPublic = isPublicCache(this.reflector, context) && !isMemberAnswer(this.reflector, context);
    const req = context.switchToHttp().getRequest<Request>();
    if (!isPublic || (req.method !== 'GET' && req.method !== 'HEAD')) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      tap(() => {
        // An answer served stale during an outage says so and is not to be kept by anyone.
        if (!res.getHeader(STALE_HEADER)) res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
      }),
    );
  }
}
