import { imageCopyOf, imageSrcSet, type ImageVariantWidth, storedImagePath } from '@hunktube/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from './api/client';
import type { Site } from './api/types';

// The site's name, brand and hosts are shared by every feature, so the query lives here rather than in one
// feature (features do not import each other).

export const getSite = (signal?: AbortSignal): Promise<Site> => ok(api.GET('/api/site', { signal }));

export const siteQueryOptions = () =>
  queryOptions({
    queryKey: ['site'],
    queryFn: ({ signal }) => getSite(signal),
    // Set per deployment; it does not change while the page is open.
    staleTime: Infinity,
  });

export const useSite = () => useQuery(siteQueryOptions());

/** The title that the brand shows: its own title when set, else the main title (the server's heads show the same). */
export { brandTitle } from '@hunktube/shared';

const ABSOLUTE = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

/**
 * An image URL to put in `src`: absolute URLs are kept; paths are joined with the image host (or left
 * relative to this origin when there is none). Empty input gives null, so callers can show a placeholder.
 */
export function resolveImageUrl(path: string | null | undefined, imageHost: string | undefined): string | null {
  const trimmed = path?.trim();
  if (!trimmed) return null;
  if (ABSOLUTE.test(trimmed)) return trimmed;
  const relative = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  const host = (imageHost ?? '').replace(/\/+$/, '');
  return `${host}${relative}`;
}

/**
 * The `srcset` of a stored image's WebP copies (docs/media.md › "Images"), resolved like resolveImageUrl; null for an
 * image the site does not store (another site's URL), which is then shown as it is.
 */
export function resolveImageSrcSet(path: string | null | undefined, imageHost: string | undefined): string | null {
  const stored = storedImagePath(path, imageHost);
  return stored && imageSrcSet(stored, (copy) => resolveImageUrl(copy, imageHost) as string);
}

/** A stored image's WebP copy at `width` (the player's poster), or the image itself when it has none. */
export function resolveImageCopy(path: string | null | undefined, imageHost: string | undefined, width: ImageVariantWidth): string | null {
  return resolveImageUrl(imageCopyOf(path, imageHost ?? '', width), imageHost);
}

/**
 * The address of a media path (a signed stream URL) on the host that a video's `cdn` picks, falling back to
 * the default host. An empty host means this site, so the path stays relative to this origin.
 */
export function mediaUrl(path: string, cdn: number | string | null | undefined, mediaHosts: Record<string, string>): string {
  const host = mediaHosts[String(cdn)] ?? mediaHosts.default ?? '';
  const relative = path.startsWith('/') ? path : `/${path}`;
  return `${host.replace(/\/+$/, '')}${relative}`;
}
