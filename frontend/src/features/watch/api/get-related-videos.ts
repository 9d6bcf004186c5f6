import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';

export const getRelatedVideos = (id: number, signal?: AbortSignal) =>
  ok(api.GET('/api/videos/{id}/related', { params: { path: { id } }, signal }));

export const relatedVideosQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['watch', 'related', id],
    queryFn: ({ signal }) => getRelatedVideos(id, signal),
  });

export const useRelatedVideos = (id: number) => useQuery(relatedVideosQueryOptions(id));
