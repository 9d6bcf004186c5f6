import type { QueryClient } from '@tanstack/react-query';
import { chooseZone } from '../utils/choose-zone';
import { readImpressions } from '../utils/impressions';
import { adSlotsQuery, type AdSlot, type AdSlotsRequest } from './get-ads';

/**
 * The zone that fills a slot now: the answer of GET /api/ads (the one the page already has, else asked for
 * within `timeoutMs`), its zones that `fits` keeps, chosen by weight among those under their cap. Null when
 * there is none, or the answer failed or came too late.
 */
export async function chooseSlot(
  queryClient: QueryClient,
  request: AdSlotsRequest,
  timeoutMs: number,
  fits: (slot: AdSlot) => boolean,
): Promise<AdSlot | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    const answer = await Promise.race([queryClient.fetchQuery(adSlotsQuery(request)), late]);
    return answer ? chooseZone(answer.data.filter(fits), readImpressions(), Date.now()) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
