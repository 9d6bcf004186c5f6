/**
 * The one way the application fails (docs/api-conventions.md › "Errors"): services and everything below them
 * throw these, never HTTP exceptions (architecture.spec.ts checks it), so that they run the same outside HTTP
 * (the worker, the CLIs). Each says what went wrong, not which status to answer; the exceptions filter maps each
 * kind to its status, once. A feature's machine-readable codes are one constant object in its `*-errors.ts`
 * (AuthErrorCode, say), passed as `code` and sent as the contract's `errorCode`.
 */
export abstract class DomainError extends Error {
  abstract readonly status: 400 | 401 | 403 | 404 | 409 | 415 | 429 | 503;
  /** Sent as Retry-After (seconds) when set. */
  readonly retryAfterSeconds?: number;
  constructor(
    message: string,
    /** Sent as the contract's `errorCode` when set: one of the feature's codes. */
    readonly code?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request names something impossible (a path outside the store, a folder where a file must be): 400. */
export class InvalidInputError extends DomainError {
  readonly status = 400;
}

/** The caller is not signed in, or not as who they say (a wrong password at sign-in): 401. */
export class UnauthenticatedError extends DomainError {
  readonly status = 401;
}

/** The caller may not do this (another member's playlist, a wrong password to delete an account): 403. */
export class ForbiddenError extends DomainError {
  readonly status = 403;
}

/** What the request names does not exist: 404. */
export class NotFoundError extends DomainError {
  readonly status = 404;
}

/** The change collides with what exists (a taken slug): 409. */
export class ConflictError extends DomainError {
  readonly status = 409;
}

/** The bytes are not of a kind this site takes: 415. */
export class UnsupportedMediaError extends DomainError {
  readonly status = 415;
}

/** The caller has used up a budget (failed sign-ins of an account, say): 429, with how long until it refills. */
export class OverBudgetError extends DomainError {
  readonly status = 429;
  constructor(
    message: string,
    override readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The server is too busy for this now (its line for the work is full): 503 with Retry-After, try again soon. */
export class BusyError extends DomainError {
  readonly status = 503;
}

/** Something the answer depends on does not answer (the database, for the health check): 503 with Retry-After. */
export class UnavailableError extends DomainError {
  readonly status = 503;
}
