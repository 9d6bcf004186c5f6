import { listingFilterParams, parseListingFilters } from '@hunktube/shared';
import { VIDEO_SORTS, type VideoSort } from '../videos/dto/list-videos.query';

/**
 * The address a server-rendered page is rendered for and kept under (docs/security.md › "Renders no one can
 * force"): its path, without a trailing slash, and only the parameters the page's components read, each as they
 * read it (frontend/src: `parseSort`, `parsePage`, the search box's `q`, `parseWatchContext`; the shared
 * `parseListingFilters`), in one
 * order; a value they would ignore is left out. `/?x=1`, `/?sort=bogus&page=1` and `/` are one page, rendered once;
 * `?t=` (where a watch page's player starts) is read by the player and the first script from the address
 * itself, never rendered, so it is not part of the page either.
 */
export function canonicalPage(path: string, query: Record<string, unknown>): string {
  const page = path.length > 1 ? path.replace(/\/$/, '') : path;
  const params = new URLSearchParams();
  const first = (name: string) => firstValue(query, name);
  if (WATCH.test(page)) {
    const context = first('context');
    const playlist = first('playlist');
    if (context === 'playlist' && playlist !== null && PLAYLIST_ID.test(playlist)) {
      params.set('context', 'playlist');
      params.set('playlist', playlist);
    } else if (context === 'watch-later') params.set('context', 'watch-later');
  } else if (LISTING.test(page)) {
    if (page === '/search') {
      // As written: the header's search box shows it untrimmed (the results, trimmed).
      const q = first('q');
      if (q) params.set('q', q);
    }
    for (const [name, value] of listingFilterParams(parseListingFilters(first))) params.set(name, value);
    const sort = listingSort(query);
    if (sort !== VIDEO_SORTS[0]) params.set('sort', sort);
    const pageNumber = listingPage(query);
    if (pageNumber > 1) params.set('page', String(pageNumber));
  }
  const search = params.toString();
  return search ? `${page}?${search}` : page;
}

/** A listing's sort as `parseSort` reads it: the first `sort` when it is one, else the default. */
export function listingSort(query: Record<string, unknown>): VideoSort {
  return VIDEO_SORTS.find((s) => s === firstValue(query, 'sort')) ?? VIDEO_SORTS[0];
}

/** A listing's page as `parsePage` reads it: the first `page` when it is a whole number above 1, else 1. */
export function listingPage(query: Record<string, unknown>): number {
  const value = firstValue(query, 'page');
  return value !== null && /^\d{1,9}$/.test(value) && Number(value) > 1 ? Number(value) : 1;
}

/** The first value of a query parameter, as the browser's URLSearchParams.get reads it; null without one. */
function firstValue(query: Record<string, unknown>, name: string): string | null {
  const value = query[name];
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' ? one : null;
}

const WATCH = /^\/video\/[1-9]\d{0,9}$/;
/** The pages that list videos by `sort` and `page` (CatalogueListing). */
const LISTING = /^\/(?:|search|categories\/[^/]+|performers\/[^/]+|tags\/[^/]+)$/;
const PLAYLIST_ID = /^[1-9]\d{0,9}$/;
