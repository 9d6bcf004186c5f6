import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { CloseRemovalRequest, RemovalRequest, RemovalRequestList } from '@/lib/api/types';
import { removalRequestsQueryKey, type RemovalRequestListParams } from './get-removal-requests';

/**
 * POST /api/admin/removal-requests/{id}/close with `{state}`: resolved (acted on) or dismissed (no action needed).
 * Resolves with the closed request; 404 for an unknown id, 409 for a request that is already closed.
 */
export const closeRemovalRequest = async (id: number, state: CloseRemovalRequest['state']): Promise<RemovalRequest> =>
  (await ok(api.POST('/api/admin/removal-requests/{id}/close', { params: { path: { id } }, body: { state } }))).data;

/** An open list page as it is once `closed` has left the queue: without it, and counted one less. */
function withoutClosed(list: RemovalRequestList, closed: RemovalRequest, filter: RemovalRequestListParams['reason'] | null): RemovalRequestList {
  const counted = !filter || filter === closed.reason;
  return {
    ...list,
    data: list.data.filter((request) => request.id !== closed.id),
    total: counted ? Math.max(0, list.total - 1) : list.total,
    counts: { ...list.counts, [closed.reason]: Math.max(0, list.counts[closed.reason] - 1) },
  };
}

/**
 * Closes a request. On success it leaves every cached page of the open list at once (and the navigation's count
 * with it); either way both lists are read again, since a refusal (already closed by another admin) means the
 * open list is stale, and the pages after it move up by one.
 */
export function useCloseRemovalRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, state }: { id: number; state: CloseRemovalRequest['state'] }) => closeRemovalRequest(id, state),
    onSuccess: (closed) => {
      const pages = queryClient.getQueriesData<RemovalRequestList>({ queryKey: [...removalRequestsQueryKey, 'open'] });
      for (const [key, list] of pages) {
        if (!list) continue;
        const { reason } = key[3] as { reason: RemovalRequestListParams['reason'] | null };
        queryClient.setQueryData<RemovalRequestList>(key, withoutClosed(list, closed, reason));
      }
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: removalRequestsQueryKey });
    },
  });
}
