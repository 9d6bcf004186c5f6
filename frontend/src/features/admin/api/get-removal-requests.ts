import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';

/** Which list of the queue: the requests still to handle, or the recently closed ones. */
export type RemovalRequestListState = 'open' | 'closed';

export const removalRequestsQueryKey = ['admin', 'removal-requests'] as const;

/** How often the admin shell asks again, so that a new request shows in its count without a reload. */
const OPEN_COUNT_POLL_MS = 2 * 60_000;

/**
 * GET /api/admin/removal-requests?state=open|closed. Open: urgent (minors, consent, illegal acts) first, then
 * oldest first. Closed: most recently closed first, at most 200.
 */
export const getRemovalRequests = (state: RemovalRequestListState, signal?: AbortSignal) =>
  ok(api.GET('/api/admin/removal-requests', { params: { query: { state } }, signal }));

export const removalRequestsQueryOptions = (state: RemovalRequestListState) =>
  queryOptions({
    queryKey: [...removalRequestsQueryKey, state],
    queryFn: ({ signal }) => getRemovalRequests(state, signal),
  });

export const useRemovalRequests = (state: RemovalRequestListState) => useQuery(removalRequestsQueryOptions(state));

/**
 * How many requests are open, for the admin navigation; undefined until known (or when it cannot be read, which
 * the navigation leaves unsaid). It shares the open list's cache, so closing a request there updates it.
 */
export function useOpenRemovalRequestCount(): number | undefined {
  return useQuery({
    ...removalRequestsQueryOptions('open'),
    select: (list) => list.data.length,
    refetchInterval: OPEN_COUNT_POLL_MS,
  }).data;
}
