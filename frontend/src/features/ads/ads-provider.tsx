import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { AdSlotsContext, useAdSlots, type AdBreakProps, type AdSlots, type BannerSlotProps } from '@/lib/ad-slots';
import { useAdSlotsQuery } from './api/get-ads';
import { useAfterFirstPicture } from './hooks/use-after-first-picture';
import { loadAdBreak, useBreakWanted } from './hooks/use-break-wanted';

// The ads' components and styles are chunks of their own, fetched only where a zone may fill a slot: a page
// without zones carries a context, a query and these wrappers (docs/ads.md › "Web client"; the watch page's
// Lighthouse and first frame are measured without zones).
const AdBreakChunk = lazy(() => loadAdBreak().then((m) => ({ default: m.AdBreak })));
const AdBannerChunk = lazy(() => import('./components/ad-banner').then((m) => ({ default: m.AdBanner })));

/** The break's chunk (fetched ahead once a zone may fill it: useBreakWanted); nothing is drawn while it comes. */
function AdBreak(props: AdBreakProps) {
  return (
    <Suspense fallback={null}>
      <AdBreakChunk {...props} />
    </Suspense>
  );
}

/**
 * A banner slot: nothing on the server, while hydrating or before the page's first picture; then the zones are
 * asked for, and the banner's chunk is fetched only when there is one.
 */
function AdBanner(props: BannerSlotProps) {
  const slots = useAdSlots();
  const painted = useAfterFirstPicture();
  const answer = useAdSlotsQuery({ placement: props.placement, embed: slots?.embed ?? false, videoId: props.videoId }, (slots?.enabled ?? false) && painted);
  if (!answer.data?.data.length) return null;
  return (
    <Suspense fallback={null}>
      <AdBannerChunk {...props} />
    </Suspense>
  );
}

interface AdsProviderProps {
  /** False while the 18+ gate covers the page: no ad is asked for before it is answered. */
  enabled: boolean;
  /** The embeddable player's page: only the zones marked for embeds. */
  embed: boolean;
  children: ReactNode;
}

/** Gives the pages under it their ad slots (lib/ad-slots.tsx): the layout's pages, and the embed's player. */
export function AdsProvider({ enabled, embed, children }: AdsProviderProps) {
  const slots = useMemo<AdSlots>(() => ({ enabled, embed, useBreakWanted, AdBreak, AdBanner }), [enabled, embed]);
  return <AdSlotsContext.Provider value={slots}>{children}</AdSlotsContext.Provider>;
}
