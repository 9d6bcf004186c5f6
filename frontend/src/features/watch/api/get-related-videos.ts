import { queryOptions, useQuery } from '@tanstack/react-query';
import { videoKeys } from '@/api/videos/keys';
import { api, ok } from '@/lib/api/client';
import { useHiddenExclude } from '@/lib/hidden-topics';

/** GET /api/videos/{id}/related, without the topics of `exclude` (a guest's hidden ones; '' for none). */
export const getRelatedVideos = (id: number, exclude = '', signal?: AbortSignal) =>
  ok(api.GET('/api/videos/{id}/related', { params: { path: { id }, query: { exclude } }, signal }));

export const relatedVideosQueryOptions = (id: number, exclude = '') =>
  queryOptions({
    queryKey: videoKeys.relatedOf(id, exclude),
    queryFn: ({ signal }) => getRelatedVideos(id, exclude, signal),
  });

/** The related row, without the visitor's hidden topics. */
export function useRelatedVideos(id: number) {
  const exclude = useHiddenExclude();
  return useQuery(relatedVideosQueryOptions(id, exclude));
}
