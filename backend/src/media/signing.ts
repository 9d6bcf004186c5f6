import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Signed media URLs in the form nginx `secure_link` checks (design.md "Media layout and signing"): the token is
 * base64url, unpadded, of MD5(`{expires}{folder} {key}`), where `folder` is `/videos/{stem}/`, and it sits in the
 * path: `/s/{token},{expires}/videos/{stem}/{file}`. One token covers every file of that folder and no other.
 */
export function folderToken(folder: string, expires: number, key: string): string {
  return createHash('md5').update(`${expires}${folder} ${key}`).digest('base64url');
}

export function signedPath(folder: string, file: string, expires: number, key: string): string {
  return `/s/${folderToken(folder, expires, key)},${expires}${folder}${file}`;
}

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

/** As nginx decides: a wrong token is refused (403) before the expiry is looked at (410). */
export function checkSignature(token: string, expires: number, folder: string, key: string, nowSeconds: number): SignatureCheck {
  const expected = Buffer.from(folderToken(folder, expires, key));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return expires <= nowSeconds ? 'expired' : 'valid';
}

/** A signed link lasts max(2 h, 3 × the video's duration), so a long video can be watched to the end. */
export function signedLifetimeSeconds(durationSeconds: number | null): number {
  return Math.max(2 * 3600, 3 * (durationSeconds ?? 0));
}

export interface SignedRequest {
  token: string;
  expires: number;
  /** `/videos/{stem}/`: the folder the token must cover. */
  folder: string;
  file: string;
}

/**
 * Reads `/{token},{expires}/videos/{stem}/{file}` (the part after `/s`), or null when it is not of that shape or
 * has `.`/`..` segments. Segments are percent-decoded, as nginx matches its decoded `$uri`.
 */
export function parseSignedPath(rawPath: string): SignedRequest | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  const match = /^\/([A-Za-z0-9_-]{22}),(\d{1,12})(\/videos\/(?:[^/]+\/)+)([^/]+)$/.exec(decoded);
  if (!match) return null;
  const [, token, expires, folder, file] = match;
  if (decoded.includes('\0') || `${folder}${file}`.split('/').some((s) => s === '.' || s === '..')) return null;
  return { token, expires: Number(expires), folder, file };
}
