import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { videoKeys } from './keys';

/** GET /api/videos/{id}: one published video; 404 for none. */
export const getVideo = (id: number, signal?: AbortSignal) =>
  ok(api.GET('/api/videos/{id}', { params: { path: { id } }, signal }));

export const videoQueryOptions = (id: number) =>
  queryOptions({
    queryKey: videoKeys.detail(id),
    queryFn: ({ signal }) => getVideo(id, signal),
  });

export const useVideo = (id: number) => useQuery(videoQueryOptions(id));
