import { AD_KINDS_OF, AD_PLACEMENTS } from '@hunktube/shared';
import type { AdKind, AdPlacement } from '../api/ad-types';

/** What the form calls each placement. */
const PLACEMENT_LABELS: Record<AdPlacement, string> = {
  preroll: 'Pre-roll (before the video)',
  postroll: 'Post-roll (after the video)',
  pause: 'Pause (while the video is paused)',
  'banner-listing': 'Banner on the listings',
  'banner-watch': 'Banner on the watch page',
  'banner-footer': 'Banner in the footer',
};

/** The placements, in the order the form offers them: the player's, then the pages' banner slots. */
export const PLACEMENTS: readonly { value: AdPlacement; label: string }[] = AD_PLACEMENTS.map((value) => ({ value, label: PLACEMENT_LABELS[value] }));

export const placementLabel = (placement: AdPlacement) => PLACEMENT_LABELS[placement] ?? placement;

export const KIND_LABELS: Record<AdKind, string> = { vast: 'VAST tag', html: 'HTML snippet' };

/** The kinds a placement takes (docs/ads.md): the banners are HTML, pre- and post-rolls VAST, a pause ad either. */
export const kindsFor = (placement: AdPlacement): readonly AdKind[] => AD_KINDS_OF[placement];
