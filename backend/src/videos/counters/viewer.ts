import { createHmac } from 'node:crypto';

/**
 * Who is counting: a signed-in user by id, anyone else by a keyed hash of their address and user agent, so
 * that dedupe works without the raw address ever being stored.
 */
export function viewerKey(userId: string | null, ip: string, userAgent: string, secret: string): string {
  if (userId) return `u:${userId}`;
  return `a:${createHmac('sha256', secret).update(`${ip}\n${userAgent}`).digest('base64url').slice(0, 22)}`;
}
