import type { AdKind, AdPlacement } from '../api/ad-types';

/** The placements, in the order the form offers them: the player's, then the pages' banner slots. */
export const PLACEMENTS: readonly { value: AdPlacement; label: string }[] = [
  { value: 'preroll', label: 'Pre-roll (before the video)' },
  { value: 'postroll', label: 'Post-roll (after the video)' },
  { value: 'pause', label: 'Pause (while the video is paused)' },
  { value: 'banner-listing', label: 'Banner on the listings' },
  { value: 'banner-watch', label: 'Banner on the watch page' },
  { value: 'banner-footer', label: 'Banner in the footer' },
];

export const placementLabel = (placement: AdPlacement) => PLACEMENTS.find((p) => p.value === placement)?.label ?? placement;

export const KIND_LABELS: Record<AdKind, string> = { vast: 'VAST tag', html: 'HTML snippet' };

/** The kinds a placement takes (docs/ads.md): the banners are HTML, pre- and post-rolls VAST, a pause ad either. */
export function kindsFor(placement: AdPlacement): readonly AdKind[] {
  if (placement === 'pause') return ['vast', 'html'];
  return placement.startsWith('banner-') ? ['html'] : ['vast'];
}

/** The deployment's brands (the API's BRAND values); a zone runs on the sites of the brands it names. */
export const BRANDS = ['default', 'atg', 'jtg'] as const;
