/**
 * Derived images: every picture in the thumbnail store (`/thumbs/...`: posters, uploaded card thumbnails,
 * storyboard sprites) has WebP copies beside it, named after the original so that anyone holding its URL can
 * name them:
 *
 *   /thumbs/2024/06/pool-party/poster.jpg           the original (JPEG, PNG, WebP or AVIF): og:image, fallback
 *   /thumbs/2024/06/pool-party/poster.jpg.320w.webp 320 pixels wide (never wider than the original)
 *   /thumbs/2024/06/pool-party/poster.jpg.640w.webp    (and 960w)
 *   /thumbs/2024/06/pool-party/poster.jpg.1280w.webp
 *   /thumbs/2024/06/pool-party/sprite-0.jpg.webp    the original's size (sprites: the storyboard's tiles keep
 *                                                   their coordinates)
 *
 * The ingest writes them with the poster and sprites, a thumbnail upload with the thumbnail; a copy that is
 * missing (a catalogue older than this, an image put in place by hand) is made on its first request.
 */

/** The widths that cards and the player ask for, in `srcset` order. */
export const IMAGE_VARIANT_WIDTHS = [320, 640, 960, 1280] as const;
export type ImageVariantWidth = (typeof IMAGE_VARIANT_WIDTHS)[number];

/** Originals that get copies: the thumbnail types the contract accepts. */
const ORIGINAL = /\.(?:jpe?g|png|webp|avif)$/i;
const VARIANT = /^(.+\.(?:jpe?g|png|webp|avif))\.(?:(\d+)w\.)?webp$/i;

/** A copy's path (or URL): `{original}.{width}w.webp`, or `{original}.webp` at the original's own size. */
export function imageVariantPath(original: string, width: ImageVariantWidth | 'full'): string {
  return width === 'full' ? `${original}.webp` : `${original}.${width}w.webp`;
}

/** The original and width a copy's path names, or null when it names no copy (or a width not made). */
export function parseImageVariant(path: string): { original: string; width: ImageVariantWidth | 'full' } | null {
  const match = VARIANT.exec(path);
  // A copy's copy is not made: its original would itself be a copy.
  if (!match || VARIANT.test(match[1])) return null;
  if (match[2] === undefined) return { original: match[1], width: 'full' };
  const width = Number(match[2]);
  return (IMAGE_VARIANT_WIDTHS as readonly number[]).includes(width) && match[2] === String(width)
    ? { original: match[1], width: width as ImageVariantWidth }
    : null;
}

/**
 * Whether an image path is a stored original with copies: a path (not a URL: a thumbnail field may name any
 * site's image) in `/thumbs/`, of an image type, with no query.
 */
export function hasImageVariants(path: string): boolean {
  return /^\/?thumbs\/[^?#]+$/.test(path) && ORIGINAL.test(path) && parseImageVariant(path) === null;
}

/** The `srcset` of an original's copies (`… 320w, … 640w, … 960w, … 1280w`) at the URL `resolve` gives each path. */
export function imageSrcSet(path: string, resolve: (path: string) => string = (p) => p): string | null {
  if (!hasImageVariants(path)) return null;
  return IMAGE_VARIANT_WIDTHS.map((width) => `${resolve(imageVariantPath(path, width))} ${width}w`).join(', ');
}

/**
 * The `/thumbs/` path of an image this site stores and makes copies of, given as a path or as a URL on the image
 * host; null for anything else (another site's image, a copy, no image).
 */
export function storedImagePath(pathOrUrl: string | null | undefined, imageHost = ''): string | null {
  const value = pathOrUrl?.trim();
  if (!value) return null;
  const host = imageHost.replace(/\/+$/, '');
  const local = host && value.startsWith(`${host}/`) ? value.slice(host.length) : value;
  return hasImageVariants(local) ? (local.startsWith('/') ? local : `/${local}`) : null;
}

/**
 * What to show of an image at `width`: the path of its WebP copy when the site stores it (a path, or a URL on
 * the image host), else the path or URL as given, for the caller to resolve. The player's poster and the watch
 * page's head both ask this, so that the head preloads the very file the player shows.
 */
export function imageCopyOf<T extends string | null | undefined>(pathOrUrl: T, imageHost: string, width: ImageVariantWidth): string | T {
  const stored = storedImagePath(pathOrUrl, imageHost);
  return stored ? imageVariantPath(stored, width) : pathOrUrl;
}

/** The copy the player shows as its poster (and the watch page's head preloads): sharp on a wide player. */
export const PLAYER_POSTER_WIDTH: ImageVariantWidth = 1280;

/**
 * How wide a card's picture is on screen, for `sizes`: grids of columns at least 260 pixels wide (240 in the
 * featured row) within 1,600 pixels of content: one column on phones, then two, three, four, five or six.
 */
export const CARD_IMAGE_SIZES = '(max-width: 560px) 100vw, (max-width: 840px) 50vw, (max-width: 1120px) 34vw, (max-width: 1400px) 25vw, 320px';
