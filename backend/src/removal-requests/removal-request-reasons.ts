import { MAX_ID } from '../common/dto/video-id.dto';

/**
 * Why someone asks for a video to come down. The first three concern consent or the law: they are urgent and
 * go to the top of the admins' queue, before copyright and other requests.
 */
export const REMOVAL_REASONS = ['underage', 'no-consent', 'illegal', 'copyright', 'other'] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

export const URGENT_REASONS: readonly RemovalReason[] = ['underage', 'no-consent', 'illegal'];
export const isUrgent = (reason: RemovalReason) => URGENT_REASONS.includes(reason);

export const REMOVAL_STATES = ['open', 'resolved', 'dismissed'] as const;
export type RemovalState = (typeof REMOVAL_STATES)[number];

/**
 * The video id in an address of this site's watch page (`https://host/video/123?t=5` on one of `siteHosts`,
 * `/video/123`), or in a bare id. Anything else, another site's address included, gives null.
 */
export function videoIdFromAddress(address: string, siteHosts: readonly string[]): number | null {
  const match = /^\s*(?:(?:https?:\/\/([^/\s?#]+))?\/video\/)?([1-9]\d{0,9})(?:[/?#]\S*)?\s*$/i.exec(address);
  if (!match) return null;
  const [, host, digits] = match;
  if (host !== undefined && !siteHosts.some((h) => sameHost(h, host))) return null;
  const id = Number(digits);
  return id <= MAX_ID ? id : null;
}

/**
 * Host names compare without case or port: a proxy may pass the host on without its port (nginx's `$host`), and
 * one name on two ports is still this site.
 */
function sameHost(a: string, b: string): boolean {
  const name = (h: string) => h.toLowerCase().replace(/:\d+$/, '');
  return name(a) === name(b);
}
