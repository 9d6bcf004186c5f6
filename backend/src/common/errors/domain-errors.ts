/**
 * Errors of the domain, thrown by services that also run outside HTTP (the worker, the CLIs): they say what
 * went wrong, not which status to answer. The exceptions filter maps each kind to its status, once.
 */
export abstract class DomainError extends Error {
  abstract readonly status: 400 | 404 | 409 | 415 | 429 | 503;
  /** Sent as Retry-After (seconds) when set. */
  readonly retryAfterSeconds?: number;
  /** Sent as the contract's `errorCode` when set: one of the feature's codes (auth-errors.ts, say). */
  readonly code?: string;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request names something impossible (a path outside the store, a folder where a file must be): 400. */
export class InvalidInputError extends DomainError {
  readonly status = 400;
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
