import { queryOptions, useQuery } from '@tanstack/react-query';
import { listKeys } from '@/api/lists/keys';
import { api, ok } from '@/lib/api/client';

/** GET /api/me/history/paused: whether the member's viewing history is being recorded. */
export const getHistoryPaused = (signal?: AbortSignal) => ok(api.GET('/api/me/history/paused', { signal }));

export const historyPausedQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: listKeys.historyPaused(userId),
    queryFn: ({ signal }) => getHistoryPaused(signal),
  });

export const useHistoryPaused = (userId: string) => useQuery(historyPausedQueryOptions(userId));
