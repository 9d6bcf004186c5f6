import { useEffect, useMemo } from 'react';
import { useAdSlots, type PlayerAdPlacement } from '@/lib/ad-slots';
import { useAdSlotsQuery } from '../api/get-ads';
import { anyZoneOpen } from '../utils/choose-zone';

/** The break's chunk (components and styles), fetched once. */
let adBreakChunk: Promise<typeof import('../components/ad-break')> | null = null;
export const loadAdBreak = () => (adBreakChunk ??= import('../components/ad-break'));

/**
 * Whether the player should start a break of `placement` (AdSlots.useBreakWanted): true while the zones are
 * being asked for and when one is under its cap, false otherwise. `ask` false holds the request back (the
 * post-roll and pause zones are asked for once the content has started). The break itself chooses the zone.
 */
export function useBreakWanted(placement: PlayerAdPlacement, videoId: number, ask = true): boolean {
  const slots = useAdSlots();
  const enabled = (slots?.enabled ?? false) && ask;
  const answer = useAdSlotsQuery({ placement, embed: slots?.embed ?? false, videoId }, enabled);
  const zones = answer.data?.data;
  // The player renders at every tick of playback: the impressions are read when the answer changes only.
  const open = useMemo(() => (zones ? anyZoneOpen(zones) : false), [zones]);
  // A zone may fill the break: its chunk is fetched now, so that nothing waits for it when the break starts.
  useEffect(() => {
    if (enabled && open) void loadAdBreak();
  }, [enabled, open]);
  if (!enabled || answer.isError) return false;
  return answer.isPending || open;
}
