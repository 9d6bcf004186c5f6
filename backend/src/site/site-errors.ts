/** Every `errorCode` the site's own routes send. */
export const SiteErrorCode = {
  /** The health check: the database does not answer (503). */
  DatabaseDown: 'DATABASE_DOWN',
  /** Readiness: this process is shutting down, or its database or its migrations are not ready (503). */
  NotReady: 'NOT_READY',
} as const;
export type SiteErrorCode = (typeof SiteErrorCode)[keyof typeof SiteErrorCode];
