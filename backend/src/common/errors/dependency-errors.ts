import { CannotExecuteNotConnectedError, QueryFailedError } from 'typeorm';

/** How long a client should wait before retrying a request refused because a dependency is down. */
export const RETRY_AFTER_SECONDS = 5;
export const DEPENDENCY_DOWN = 'The service is temporarily unavailable, please try again shortly';

/** SQLSTATE classes and codes that mean "the server is not there", not "the query is wrong". */
const DOWN_SQLSTATES = /^(08...|57P0[1-3]|53300)$/;
const DOWN_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** pg, ioredis and node-redis say it in words, without a code. */
const DOWN_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /connection is closed/i,
  /stream isn't writeable/i,
  /client is (closed|offline)/i,
  /command timed out/i,
  /reached the max retries per request/i,
  /socket closed unexpectedly/i,
  /driver not connected/i, // TypeORM, once the database is closed under the app
  /^LOADING /, // Redis restarted, reading its snapshot back before it answers commands
];

/**
 * True when `error` says that the database or Redis could not be reached (refused, reset, timed out, shut down),
 * as opposed to a query it refused: those answer 503 with Retry-After, never 500.
 */
export function isDependencyDown(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  if (error instanceof CannotExecuteNotConnectedError) return true;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown; driverError?: unknown; name?: unknown };
  if (typeof e.code === 'string' && (DOWN_ERRNO.has(e.code) || (error instanceof QueryFailedError ? false : DOWN_SQLSTATES.test(e.code)))) return true;
  if (error instanceof QueryFailedError) {
    const code = (e.driverError as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && DOWN_SQLSTATES.test(code)) return true;
  }
  if (e.name === 'MaxRetriesPerRequestError' || e.name === 'ClientClosedError' || e.name === 'ClientOfflineError') return true;
  if (typeof e.message === 'string' && DOWN_MESSAGES.some((re) => re.test(e.message as string))) return true;
  // An AggregateError (several addresses refused), a wrapped driver error or a cause.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDependencyDown(inner, depth + 1))) return true;
  return isDependencyDown(e.driverError, depth + 1) || isDependencyDown(e.cause, depth + 1);
}

/**
 * `read()`; when it fails because the dependency is down, what `recall()` remembers of its last answer instead
 * (the error stands when it remembers nothing, or when the failure is of another kind).
 */
export async function readOrRecall<T>(read: () => Promise<T>, recall: () => T | undefined): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const known = isDependencyDown(error) ? recall() : undefined;
    if (known === undefined) throw error;
    return known;
  }
}
