import { createHmac } from 'node:crypto';

/**
 * Who is counting: a signed-in user by id, anyone else by a keyed hash of their network (`clientNetwork`: the IPv4
 * address, the IPv6 /64), so that dedupe works without the raw address ever being stored, and a changing
 * User-Agent is the same viewer.
 */
export function viewerKey(userId: string | null, network: string, secret: string): string {
  if (userId) return `u:${userId}`;
  return `a:${createHmac('sha256', secret).update(network).digest('base64url').slice(0, 22)}`;
}
