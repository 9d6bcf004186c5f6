import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { requestIdOf } from '../http/request-log';
import { DEPENDENCY_DOWN, isDependencyDown, RETRY_AFTER_SECONDS } from '../errors/dependency-errors';
import { DomainError } from '../errors/domain-errors';
import { isBodyErrorText } from '../http/request-guards';
import { sqlStateOf } from '../utils/database-errors';

/** The contract's failure body. */
export interface ErrorBody {
  error: string;
  errorCode?: string;
  statusCode: number;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Authentication required',
  403: 'You are not allowed to do this',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Request body too large',
  415: 'Unsupported media type',
  429: 'Too many requests, please try again later',
  503: 'Service unavailable',
};

/**
 * Turns every error into `{ error, errorCode?, statusCode }`. A dependency that is down (database, Redis) answers
 * 503 with Retry-After; unexpected errors are logged and answered 500.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    // A client that went away mid-answer (a player cancelling a segment it no longer needs) is no fault: counted
    // in `http_requests_aborted_total` (common/metrics/metrics.ts), not logged as an error, and not answered.
    const req = host.switchToHttp().getRequest<Request>();
    if (isClientAbort(exception) && (req.socket?.destroyed || res.destroyed || (exception as { type?: unknown }).type === 'request.aborted')) {
      this.logger.debug(`The client went away: ${(exception as Error).message}`);
      if (!res.headersSent && !res.destroyed) res.status(400).json({ error: 'Request aborted', statusCode: 400 });
      return;
    }
    const body = this.toBody(exception);
    if (body.statusCode === HttpStatus.SERVICE_UNAVAILABLE) {
      // Expected during an outage and possibly thousands a second: one line, no stack.
      this.logger.warn(exception instanceof HttpException || !(exception instanceof Error) ? body.error : `${body.error}: ${exception.message}`);
    } else if (body.statusCode >= 500) {
      const id = requestIdOf(host.switchToHttp().getRequest<Request>());
      this.logger.error(`${exception instanceof Error ? exception.stack : String(exception)}${id ? ` [${id}]` : ''}`);
    }
    if (res.headersSent) return;
    if (exception instanceof DomainError && exception.retryAfterSeconds) res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    if (body.statusCode === HttpStatus.SERVICE_UNAVAILABLE && !res.getHeader('Retry-After')) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    res.status(body.statusCode).json(body);
  }

  private toBody(exception: unknown): ErrorBody {
    if (isDependencyDown(exception)) return { error: DEPENDENCY_DOWN, statusCode: HttpStatus.SERVICE_UNAVAILABLE };
    if (exception instanceof DomainError) {
      const { message: error, code: errorCode, status: statusCode } = exception;
      return errorCode ? { error, errorCode, statusCode } : { error, statusCode };
    }
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      const response = exception.getResponse();
      if (typeof response === 'string') return { error: response, statusCode };
      const r = response as { message?: unknown; error?: unknown; errorCode?: unknown };
      const message = Array.isArray(r.message)
        ? r.message.join('; ')
        : typeof r.message === 'string'
          ? r.message
          : typeof r.error === 'string'
            ? r.error
            : (STATUS_TEXT[statusCode] ?? 'Error');
      return typeof r.errorCode === 'string' ? { error: message, errorCode: r.errorCode, statusCode } : { error: message, statusCode };
    }
    // The database's own codes (SQLSTATE) never reach the client, which has no use for them (issue #29): the
    // routes whose answers name one (a playlist's 23505, in the contract) say so themselves.
    const code = sqlStateOf(exception);
    if (code) {
      // Constraints are the last line of defence; services map the expected cases with their own texts.
      if (code === '23505') return { error: 'Already exists', statusCode: 409 };
      // A row it refers to went away meanwhile (say, a video deleted between a check and an insert).
      if (code === '23503') return { error: 'Not found', statusCode: 404 };
      // A bad value, a missing one (NOT NULL) or one a CHECK refuses: the input was wrong, whoever let it through.
      if (code.startsWith('22') || code === '23502' || code === '23514') return { error: 'Invalid value', statusCode: 400 };
    }
    // Errors raised by Express middleware (body parser) carry their status; ours also their text.
    const e = exception as { status?: unknown; message?: unknown };
    if (e?.status === 400 && isBodyErrorText(e.message)) return { error: e.message as string, statusCode: 400 };
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
      return { error: STATUS_TEXT[e.status] ?? 'Invalid request', statusCode: e.status };
    }
    return { error: 'Internal server error', statusCode: HttpStatus.INTERNAL_SERVER_ERROR };
  }
}

/** An error that only says the client closed the connection before the answer was sent or the body was read. */
export function isClientAbort(exception: unknown): boolean {
  const e = exception as { code?: unknown; type?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return e.code === 'ECONNABORTED' || e.code === 'ECONNRESET' || e.code === 'ERR_STREAM_PREMATURE_CLOSE' || e.type === 'request.aborted' || e.message === 'Request aborted' || e.message === 'aborted';
}
