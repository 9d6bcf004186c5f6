import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useAdSlots, type PlayerAdPlacement } from '@/lib/ad-slots';
import { useAdSlotsQuery } from '../api/get-ads';
import { hasEarlyPreroll } from '../early-preroll';
import { anyZoneOpen } from '../utils/choose-zone';

const noChanges = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

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
  // Asked for in the browser only, once hydrated: a server render that asked would put the zones in the page's
  // bootstrap block and in the rendered pages kept for guests, where a zone's change would not show.
  const hydrated = useSyncExternalStore(noChanges, inBrowser, onServer);
  const answer = useAdSlotsQuery({ placement, embed: slots?.embed ?? false, videoId }, enabled && hydrated);
  const zones = answer.data?.data;
  // The player renders at every tick of playback: the impressions are read when the answer changes only.
  const open = useMemo(() => (zones ? anyZoneOpen(zones) : false), [zones]);
  // A zone may fill the break: its chunks (the break's, and the VAST client's where a zone is VAST) are fetched
  // now, so that nothing waits for them when the break starts.
  const vast = useMemo(() => zones?.some((zone) => zone.kind === 'vast') ?? false, [zones]);
  useEffect(() => {
    if (!enabled || !open) return;
    void loadAdBreak().then((chunk) => {
      if (vast) void chunk.preloadVastClient();
    });
  }, [enabled, open, vast]);
  if (!enabled) return false;
  // A pre-roll the page's first script prepared (and may have started): the break takes it over.
  if (placement === 'preroll' && !(slots?.embed ?? false) && hasEarlyPreroll(videoId)) return true;
  if (answer.isError) return false;
  // Not asked yet (hydrating: a click held by the page's first script is replayed now) or awaited: a break may be due.
  return !hydrated || answer.isPending || open;
}
