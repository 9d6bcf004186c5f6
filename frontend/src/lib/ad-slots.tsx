import { createContext, useContext, type ComponentType } from 'react';

// The ad slots of the pages and the player (docs/ads.md › "Web client"). The ads are a feature of their own
// (features/ads), which the player (features/watch) and the listings (features/browse) may not import: the app
// hands its pieces down through this context, from the layout and the embed route, which may import any feature.

export type PlayerAdPlacement = 'preroll' | 'postroll' | 'pause';
export type BannerPlacement = 'banner-listing' | 'banner-watch' | 'banner-footer';

export interface AdBreakProps {
  placement: PlayerAdPlacement;
  videoId: number;
  /** The content's volume, which a video ad starts with. */
  volume: number;
  muted: boolean;
  /** The ad is over (played, skipped, closed), or there was none or it failed: the content goes on. */
  onDone: () => void;
}

export interface BannerSlotProps {
  placement: BannerPlacement;
  videoId?: number;
}

export interface AdSlots {
  /** False while the 18+ gate covers the page: nothing is asked for before it is answered. */
  enabled: boolean;
  /** The embeddable player (or a page framed elsewhere): only the zones marked for embeds. */
  embed: boolean;
  /**
   * A hook: whether a break of `placement` may show an ad for this video (true while the answer is awaited, false
   * when no zone can: none, all capped, the request failed or ads are not enabled; `ask` false: not asked for yet).
   * The player starts a break only then.
   */
  useBreakWanted: (placement: PlayerAdPlacement, videoId: number, ask?: boolean) => boolean;
  /** Plays (pre-roll, post-roll) or shows (pause) one ad over the player, then calls `onDone`. */
  AdBreak: ComponentType<AdBreakProps>;
  AdBanner: ComponentType<BannerSlotProps>;
}

/** Null where the page carries no ads (a page without the provider: the admin's, tests of a feature alone). */
export const AdSlotsContext = createContext<AdSlots | null>(null);

export const useAdSlots = () => useContext(AdSlotsContext);

/** A banner at this spot of the page, when the page carries ads. */
export function BannerSlot(props: BannerSlotProps) {
  const slots = useAdSlots();
  if (!slots) return null;
  return <slots.AdBanner {...props} />;
}
