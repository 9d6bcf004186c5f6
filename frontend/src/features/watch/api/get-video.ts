import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { Video } from '@/lib/api/types';

export const getVideo = (id: number, signal?: AbortSignal) => api.get<Video>(`/api/videos/${id}`, { signal });

export const videoQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['watch', 'video', id],
    queryFn: ({ signal }) => getVideo(id, signal),
  });

export const useVideo = (id: number) => useQuery(videoQueryOptions(id));
