import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

/** One zone that may fill a slot: GET /api/ads answers the active zones of this site that apply to this viewer. */
export type AdSlot = components['schemas']['AdSlotDto'];
export type AdPlacement = AdSlot['placement'];
export type AdSlotList = components['schemas']['AdSlotListDto'];

export interface AdSlotsRequest {
  placement: AdPlacement;
  /** The embeddable player asks: only the zones marked for embeds. */
  embed: boolean;
  videoId?: number;
}

/**
 * GET /api/ads for one slot. Not tried again: an ad blocker refuses it at once, and the page goes on without ads
 * (retries would only hold a pre-roll back).
 */
export const adSlotsQuery = ({ placement, embed, videoId }: AdSlotsRequest) =>
  queryOptions({
    queryKey: ['ads', placement, embed, videoId ?? null],
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/ads', {
          params: { query: { placement, embed: embed ? 'true' : 'false', videoId: videoId === undefined ? undefined : String(videoId) } },
          signal,
        }),
      ),
    retry: false,
  });

export const useAdSlotsQuery = (request: AdSlotsRequest, enabled: boolean) => useQuery({ ...adSlotsQuery(request), enabled });
