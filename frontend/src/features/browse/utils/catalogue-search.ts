import { VIDEO_SORTS, type VideoSort } from '../api/get-videos';

export const DEFAULT_SORT: VideoSort = 'newest';

export const SORT_LABELS: Record<VideoSort, string> = {
  newest: 'Newest',
  'most-viewed': 'Most viewed',
  'top-rated': 'Top rated',
  trending: 'Trending',
  longest: 'Longest',
};

export function parseSort(value: string | null): VideoSort {
  return VIDEO_SORTS.find((sort) => sort === value) ?? DEFAULT_SORT;
}

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
