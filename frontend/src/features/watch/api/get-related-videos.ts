import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { RelatedVideos } from '@/lib/api/types';

export const getRelatedVideos = (id: number, signal?: AbortSignal) =>
  api.get<RelatedVideos>(`/api/videos/${id}/related`, { signal });

export const relatedVideosQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['watch', 'related', id],
    queryFn: ({ signal }) => getRelatedVideos(id, signal),
  });

export const useRelatedVideos = (id: number) => useQuery(relatedVideosQueryOptions(id));
