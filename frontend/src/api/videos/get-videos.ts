import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { type GetVideosParams, videoKeys } from './keys';

export type { GetVideosParams };

/** GET /api/videos: one page of the catalogue. */
export const getVideos = (params: GetVideosParams = {}, signal?: AbortSignal) =>
  ok(api.GET('/api/videos', { params: { query: { ...params } }, signal }));

export const videosQueryOptions = (params: GetVideosParams = {}) =>
  queryOptions({
    queryKey: videoKeys.list(params),
    queryFn: ({ signal }) => getVideos(params, signal),
    // Keep the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export const useVideos = (params: GetVideosParams = {}) => useQuery(videosQueryOptions(params));
