import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { mergeExclude, useHiddenExclude } from '@/lib/hidden-topics';
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

/**
 * A listing's query with the visitor's hidden topics (`useHiddenExclude`, `hiddenExcludeOf`) added to what it
 * excludes itself; the same query as before when there are none.
 */
export const withHidden = (params: GetVideosParams, hidden: string): GetVideosParams =>
  hidden ? { ...params, exclude: mergeExclude(params.exclude, hidden) } : params;

/** A page of the catalogue, without the visitor's hidden topics. */
export function useVideos(params: GetVideosParams = {}) {
  const hidden = useHiddenExclude();
  return useQuery(videosQueryOptions(withHidden(params, hidden)));
}
