/** Every `errorCode` the site's own routes send. */
export const SiteErrorCode = {
  /** The health check: the database does not answer (503). */
  DatabaseDown: 'DATABASE_DOWN',
} as const;
export type SiteErrorCode = (typeof SiteErrorCode)[keyof typeof SiteErrorCode];
