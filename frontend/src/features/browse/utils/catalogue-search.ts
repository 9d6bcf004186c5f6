import { DEFAULT_SORT, type VideoSort } from '@/api/videos/sorts';

/**
 * The query string of a catalogue view, leaving out defaults so that links stay short. `keep` holds the view's
 * other parameters (a search's `q`), which come first.
 */
export function catalogueSearch(sort: VideoSort, page = 1, keep: Record<string, string> = {}): string {
  const params = new URLSearchParams(keep);
  if (sort !== DEFAULT_SORT) params.set('sort', sort);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `?${search}` : '';
}
