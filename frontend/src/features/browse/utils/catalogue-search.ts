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

export function parsePage(value: string | null): number {
  if (value === null || !/^\d+$/.test(value)) return 1;
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** The query string of a catalogue view, leaving out defaults so that links stay short. */
export function catalogueSearch(sort: VideoSort, page = 1): string {
  const params = new URLSearchParams();
  if (sort !== DEFAULT_SORT) params.set('sort', sort);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `?${search}` : '';
}
