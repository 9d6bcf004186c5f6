import { CanActivate, ExceptionFilter, ForbiddenException, HttpStatus } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { MAX_ID } from '../../common/dto/video-id.dto';
import { SESSION_COOKIE_PAIR } from '../../common/http/session-cookie';
import { CountersController } from '../counters.controller';
import { clientInfoOf, type ClientInfo } from './viewer.decorator';
import { CountersService } from './counters.service';

type CountingMethod = 'incrementViews' | 'addTrending' | 'incrementLikes';

/**
 * The guests' counting calls of the watch page, with the status each answers (its `@HttpCode`) and, where the
 * counters can answer it at once from memory, that answer (`null`: done, no body).
 */
interface CountingRoute {
  method: CountingMethod;
  status: number;
  now?: (counters: CountersService, videoId: number, viewer: string) => object | null | undefined;
}
const ROUTES: ReadonlyMap<string, CountingRoute> = new Map<string, CountingRoute>([
  ['/api/video/increment-views', { method: 'incrementViews', status: HttpStatus.OK, now: (c, id, viewer) => c.recordViewNow(id, viewer) }],
  ['/api/video/add-trending', { method: 'addTrending', status: HttpStatus.NO_CONTENT, now: (c, id, viewer) => (c.recordTrendingNow(id, viewer) ? null : undefined) }],
  ['/api/video/increment-likes', { method: 'incrementLikes', status: HttpStatus.OK }],
]);

/** A body that `VideoIdDto` takes as it is: exactly `{videoId}`, a positive 32-bit integer. */
function exactVideoId(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const keys = Object.keys(body);
  const videoId = (body as { videoId?: unknown }).videoId;
  return keys.length === 1 && keys[0] === 'videoId' && Number.isInteger(videoId) && (videoId as number) >= 1 && (videoId as number) <= MAX_ID
    ? (videoId as number)
    : null;
}

/**
 * The watch page's counting calls from guests, the most frequent writes there are, go to the same controller
 * methods, behind the same rate-limit guard and answered through the same exceptions filter, without Nest's
 * routing and its validation pass: only for a request that pass would take unchanged (no token, so no account
 * to load; a body that is exactly `{videoId}` with a valid id; no query string). Everything else (members,
 * any other body, refusals of the body) goes on to the full pipeline, which gives it the contract's answers.
 * Registered after the cross-site guard, the JSON-only guard and the JSON parser, before the cookie parser (a
 * session cookie is looked for in the raw header: a request that has one goes the full way).
 */

export function directCountingMiddleware(
  controller: CountersController,
  counters: CountersService,
  rateLimit: CanActivate,
  filter: ExceptionFilter,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    const route = ROUTES.get(req.url);
    if (!route || req.headers.authorization || SESSION_COOKIE_PAIR.test(req.headers.cookie ?? '')) return next();
    const videoId = exactVideoId(req.body);
    if (videoId === null) return next();
    const handler = controller[route.method] as (dto: { videoId: number }, user: null, client: ClientInfo) => Promise<unknown>;
    const host = new ExecutionContextHost([req, res, next], CountersController, handler);
    host.setType('http');
    const count = async () => {
      // As Nest answers a guard that says no.
      if (!(await rateLimit.canActivate(host))) throw new ForbiddenException('Forbidden resource');
      const client = clientInfoOf(req);
      let answer: unknown = route.now?.(counters, videoId, counters.viewerOf(null, client));
      if (answer === undefined) answer = await handler.call(controller, { videoId }, null, client);
      // Written as it is: Express's res.json would hash the body for an ETag (a POST's answer is never
      // revalidated) and check freshness; the headers are otherwise the full pipeline's (tested).
      res.statusCode = route.status;
      if (answer === undefined || answer === null) {
        res.end();
        return;
      }
      const body = JSON.stringify(answer);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(body));
      res.end(body);
    };
    count().catch((error: unknown) => filter.catch(error, host));
  };
}
