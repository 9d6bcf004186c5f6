import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { RemovalReason } from '@/lib/api/types';

/** Which list of the queue: the requests still to handle, or the closed ones. */
export type RemovalRequestListState = 'open' | 'closed';

/** One page of one list, optionally of one reason. */
export interface RemovalRequestListParams {
  state: RemovalRequestListState;
  /** From 1. */
  page?: number;
  reason?: RemovalReason;
}

/** Requests per page: the API's default, a page an admin reads through before moving on. */
export const REMOVAL_REQUESTS_PAGE_SIZE = 20;

export const removalRequestsQueryKey = ['admin', 'removal-requests'] as const;

/** How often the admin shell asks again, so that a new request shows in its count without a reload. */
const OPEN_COUNT_POLL_MS = 2 * 60_000;

/**
 * GET /api/admin/removal-requests?state&reason&page&limit: a page of the list with its `total` and the `counts`
 * of every reason in that state. Open: urgent reasons (minors, consent, illegal acts) first, then the requests
 * the most senders reported, then each sender's oldest before their next, then oldest first. Closed: most
 * recently closed first.
 */
export const getRemovalRequests = ({ state, page = 1, reason }: RemovalRequestListParams, signal?: AbortSignal) =>
  ok(
    api.GET('/api/admin/removal-requests', {
      params: { query: { state, page, limit: REMOVAL_REQUESTS_PAGE_SIZE, ...(reason ? { reason } : {}) } },
      signal,
    }),
  );

/** The key of one list page; `[...removalRequestsQueryKey, state]` covers every page of that list. */
export const removalRequestsQueryOptions = ({ state, page = 1, reason }: RemovalRequestListParams) =>
  queryOptions({
    queryKey: [...removalRequestsQueryKey, state, { page, reason: reason ?? null }] as const,
    queryFn: ({ signal }) => getRemovalRequests({ state, page, reason }, signal),
  });

export const useRemovalRequests = (params: RemovalRequestListParams) => useQuery(removalRequestsQueryOptions(params));

/**
 * How many requests are open, for the admin navigation; undefined until known (or when it cannot be read, which
 * the navigation leaves unsaid). It shares the first page of the open list's cache, so closing a request there
 * updates it.
 */
export function useOpenRemovalRequestCount(): number | undefined {
  return useQuery({
    ...removalRequestsQueryOptions({ state: 'open' }),
    select: (list) => list.total,
    refetchInterval: OPEN_COUNT_POLL_MS,
  }).data;
}
