import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import { chooseZone } from '../utils/choose-zone';
import { readImpressions } from '../utils/impressions';
import { adSlotsQuery, type AdSlot, type AdSlotList, type AdSlotsRequest } from './get-ads';

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
    // The player's own read of the same zones may be under way; when it is cancelled (its component drawn again
    // while the page hydrates), this read is cancelled with it: asked again, a few times.
    const ask = async (tries: number): Promise<AdSlotList> => {
      try {
        return await queryClient.fetchQuery(adSlotsQuery(request));
      } catch (error) {
        if (tries > 1 && isCancelledError(error)) return ask(tries - 1);
        throw error;
      }
    };
    const answer = await Promise.race([ask(3), late]);
    return answer ? chooseZone(answer.data.filter(fits), readImpressions(), Date.now()) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
