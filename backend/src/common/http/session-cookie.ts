import type { CookieOptions, Request } from 'express';
import type { AppConfig } from '../../config/app-config';

/** The session cookie's name in the contract; in production it carries the `__Host-` prefix (sessionCookieName). */
export const ACCESS_TOKEN_COOKIE = 'access_token';
const HOST_PREFIXED = `__Host-${ACCESS_TOKEN_COOKIE}`;

/**
 * The session cookie's name: `__Host-access_token` in production (docs/security.md › "Headers and small things"), which a
 * browser keeps only when it is Secure, for `/`, and set by this very host without a Domain: a page on a sibling
 * subdomain cannot plant or overwrite it (cookie tossing, a way to sign a victim into the attacker's account).
 * `access_token`, the contract's name, elsewhere: on http://localhost a Secure cookie is not a given. A production
 * site reads the prefixed one only.
 */
export const sessionCookieName = (config: Pick<AppConfig, 'env'>): string => (config.env === 'production' ? HOST_PREFIXED : ACCESS_TOKEN_COOKIE);

/** The session cookie's attributes, as set at sign-in and cleared at sign-out (and at an account's deletion). */
export const sessionCookieOptions = (config: Pick<AppConfig, 'env'>): CookieOptions => ({
  httpOnly: true,
  sameSite: 'lax',
  secure: config.env === 'production',
  path: '/',
});

/** The token in the request's session cookie, or null. */
export const fromCookie = (req: Request, config: Pick<AppConfig, 'env'>): string | null => {
  const token = (req.cookies as Record<string, unknown> | undefined)?.[sessionCookieName(config)];
  return typeof token === 'string' && token ? token : null;
};

/** The request carries a session cookie of either name (parsed cookies). */
export const hasSessionCookie = (req: Request): boolean => {
  const cookies = req.cookies as Record<string, unknown> | undefined;
  return Boolean(cookies?.[ACCESS_TOKEN_COOKIE] || cookies?.[HOST_PREFIXED]);
};

/** A session cookie of either name among a raw Cookie header's pairs. */
export const SESSION_COOKIE_PAIR = /(?:^|;)\s*(?:__Host-)?access_token=/;
