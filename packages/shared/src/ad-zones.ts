/*
 * What an ad zone may be (docs/ads.md): where it shows, what it plays there, and on which brands' sites. The API
 * validates a zone by these; the admins' zone form offers the same choices.
 */

/** The deployment's brands (the API's BRAND values): each host serves one, and a zone runs on those it names. */
export const BRANDS = ['default', 'atg', 'jtg'] as const;
export type Brand = (typeof BRANDS)[number];

/** The placements: the player's, then the pages' banner slots (the order the zone form offers them in). */
export const AD_PLACEMENTS = ['preroll', 'postroll', 'pause', 'banner-listing', 'banner-watch', 'banner-footer'] as const;
export type AdPlacement = (typeof AD_PLACEMENTS)[number];

/** What a zone serves: a VAST tag for the player, or an HTML snippet. */
export const AD_KINDS = ['vast', 'html'] as const;
export type AdKind = (typeof AD_KINDS)[number];

/** The kinds each placement takes: the player's breaks play VAST; banners are HTML; a pause may be either. */
export const AD_KINDS_OF: Readonly<Record<AdPlacement, readonly AdKind[]>> = {
  preroll: ['vast'],
  postroll: ['vast'],
  pause: ['vast', 'html'],
  'banner-listing': ['html'],
  'banner-watch': ['html'],
  'banner-footer': ['html'],
};
