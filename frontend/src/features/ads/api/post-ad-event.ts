import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

export type AdEvent = components['schemas']['AdEventDto']['event'];

/**
 * POST /api/ads/{id}/events: counts one event of a zone (docs/ads.md). Sent and forgotten: a figure lost to a
 * network error or an ad blocker must never hold the page or the player back.
 */
export function postAdEvent(id: number, event: AdEvent): void {
  // keepalive: a click or a skip is often the last thing before the page is left.
  void api.POST('/api/ads/{id}/events', { params: { path: { id } }, body: { event }, keepalive: true }).catch(() => {});
}
