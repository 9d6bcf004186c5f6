import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { AdSlotsRequest } from './types';
import { takeEarlyAnswer } from '../early-preroll';

export type { AdPlacement, AdSlot, AdSlotList, AdSlotsRequest } from './types';

/**
 * GET /api/ads for one slot. Not tried again: an ad blocker refuses it at once, and the page goes on without ads
 * (retries would only hold a pre-roll back).
 */
export const adSlotsQuery = ({ placement, embed, videoId }: AdSlotsRequest) =>
  queryOptions({
    queryKey: ['ads', placement, embed, videoId ?? null],
    // A watch page's pre-roll zones may have been asked for by the page's first script (../early-preroll.ts).
    queryFn: ({ signal }) =>
      takeEarlyAnswer({ placement, embed, videoId }) ??
      ok(
        api.GET('/api/ads', {
          params: { query: { placement, embed: embed ? 'true' : 'false', videoId: videoId === undefined ? undefined : String(videoId) } },
          signal,
        }),
      ),
    retry: false,
  });

export const useAdSlotsQuery = (request: AdSlotsRequest, enabled: boolean) => useQuery({ ...adSlotsQuery(request), enabled });
