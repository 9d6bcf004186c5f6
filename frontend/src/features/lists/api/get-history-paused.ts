import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { HistoryPaused } from '@/lib/api/types';
import { listsKeys } from './cache';

/** GET /api/me/history/paused: whether the member's viewing history is being recorded. */
export const getHistoryPaused = (signal?: AbortSignal) => api.get<HistoryPaused>('/api/me/history/paused', { signal });

export const historyPausedQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: listsKeys.historyPaused(userId),
    queryFn: ({ signal }) => getHistoryPaused(signal),
  });

export const useHistoryPaused = (userId: string) => useQuery(historyPausedQueryOptions(userId));
