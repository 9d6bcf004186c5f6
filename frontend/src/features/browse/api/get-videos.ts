import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { VideoCardPage } from '@/lib/api/types';

export const VIDEO_SORTS = ['newest', 'most-viewed', 'top-rated', 'trending', 'longest'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];

export interface GetVideosParams {
  sort?: VideoSort;
  page?: number;
  limit?: number;
  category?: string;
  performer?: string;
  q?: string;
  featured?: boolean;
}

export const getVideos = (params: GetVideosParams = {}, signal?: AbortSignal) =>
  api.get<VideoCardPage>('/api/videos', { query: { ...params }, signal });

export const getVideosQueryOptions = (params: GetVideosParams = {}) =>
  queryOptions({
    queryKey: ['videos', params],
    queryFn: ({ signal }) => getVideos(params, signal),
    // Keep the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export const useVideos = (params: GetVideosParams = {}) => useQuery(getVideosQueryOptions(params));
