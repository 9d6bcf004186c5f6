/** The orders of a catalogue listing (`sort` of GET /api/videos), with the words the pages show for them. */
export const VIDEO_SORTS = ['newest', 'most-viewed', 'top-rated', 'trending', 'longest'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];

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
