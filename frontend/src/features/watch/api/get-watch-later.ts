import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { VideoCardPage } from '@/lib/api/types';

/** The queue's first page is the whole queue the player walks through (the API's largest page). */
const QUEUE_LIMIT = 60;

export const getWatchLater = (signal?: AbortSignal) =>
  api.get<VideoCardPage>('/api/me/watch-later', { query: { page: 1, limit: QUEUE_LIMIT }, signal });

export const watchLaterQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['watch', 'watch-later', userId],
    queryFn: ({ signal }) => getWatchLater(signal),
  });

export const useWatchLater = (userId: string | null) =>
  useQuery({ ...watchLaterQueryOptions(userId ?? ''), enabled: userId !== null });
