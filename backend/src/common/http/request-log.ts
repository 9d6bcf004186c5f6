import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A request slower than this is logged, whatever its answer. */
export const SLOW_REQUEST_MS = 1000;
/** What of a client's own X-Request-Id is logged beside the server's: these characters only, this many at most. */
const CLIENT_ID_KEPT = /[^A-Za-z0-9._:-]/g;
export const CLIENT_ID_MAX_LENGTH = 64;

/** The request's id, as `requestLog` gave it. */
export const requestIdOf = (req: Request): string | undefined => (req as Request & { requestId?: string }).requestId;

/** The X-Request-Id the client (or a proxy in front) sent, cut to what may be logged; undefined without one. */
export function clientIdOf(req: Pick<Request, 'headers'>): string | undefined {
  const incoming = req.headers['x-request-id'];
  const id = (Array.isArray(incoming) ? incoming[0] : incoming)?.replace(CLIENT_ID_KEPT, '').slice(0, CLIENT_ID_MAX_LENGTH);
  return id || undefined;
}

/**
 * Every request gets an id of this process's making, answered in `X-Request-Id` so that a user's report and the
 * logs meet; an id the client or the proxy in front sent (nginx's $request_id) is never taken for it, only logged
 * beside it as `client id`, cut to 64 safe characters (a client's id could otherwise forge or collide with
 * others' lines, issue #29). Only what tells something is logged: answers
 * 500 and up and requests slower than SLOW_REQUEST_MS, one line each with id, method, path (never the query
 * string: search words stay out of the logs), status and time. The access log of every request is the
 * proxy's job (the stack's nginx keeps it); here it cost more per cached read than the read itself.
 */
export function requestLog(slowMs = SLOW_REQUEST_MS) {
  const logger = new Logger('HTTP');
  const prefix = randomBytes(4).toString('hex');
  // When this log's requests started, by request: one subscription to the server's finished answers instead of
  // a 'finish' listener per request.
  const started = Symbol('started');
  let sequence = 0;
  diagnosticsChannel.subscribe('http.server.response.finish', (message) => {
    const { request: req, response: res } = message as { request: Request; response: ServerResponse };
    const at = (req as Request & { [started]?: number })[started];
    if (at === undefined) return;
    const ms = performance.now() - at;
    if (res.statusCode < 500 && ms < slowMs) return;
    const clientId = clientIdOf(req);
    const line = `${req.method} ${req.path ?? req.url} ${res.statusCode} ${Math.round(ms)} ms [${requestIdOf(req)}]${clientId ? ` (client id ${clientId})` : ''}`;
    if (res.statusCode >= 500) logger.error(line);
    else logger.warn(`slow: ${line}`);
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const id = `${prefix}-${(++sequence).toString(36)}`;
    (req as Request & { requestId?: string }).requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    (req as Request & { [started]?: number })[started] = performance.now();
    next();
  };
}
