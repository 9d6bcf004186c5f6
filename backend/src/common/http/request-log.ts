import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A request slower than this is logged, whatever its answer. */
export const SLOW_REQUEST_MS = 1000;
/** An id a proxy in front (nginx's $request_id) passes on is kept when it looks like one. */
const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id, as `requestLog` gave it. */
export const requestIdOf = (req: Request): string | undefined => (req as Request & { requestId?: string }).requestId;

/**
 * Every request gets an id (the proxy's `X-Request-Id` when it sends one, else this process's own), answered
 * in `X-Request-Id` so that a user's report and the logs meet. Only what tells something is logged: answers
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
    const line = `${req.method} ${req.path ?? req.url} ${res.statusCode} ${Math.round(ms)} ms [${requestIdOf(req)}]`;
    if (res.statusCode >= 500) logger.error(line);
    else logger.warn(`slow: ${line}`);
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : `${prefix}-${(++sequence).toString(36)}`;
    (req as Request & { requestId?: string }).requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    (req as Request & { [started]?: number })[started] = performance.now();
    next();
  };
}
