import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { CloseRemovalRequest, RemovalRequest, RemovalRequestList } from '@/lib/api/types';
import { removalRequestsQueryKey, removalRequestsQueryOptions } from './get-removal-requests';

/**
 * POST /api/admin/removal-requests/{id}/close with `{state}`: resolved (acted on) or dismissed (no action needed).
 * Resolves with the closed request; 404 for an unknown id, 409 for a request that is already closed.
 */
export const closeRemovalRequest = async (id: number, state: CloseRemovalRequest['state']): Promise<RemovalRequest> =>
  (await ok(api.POST('/api/admin/removal-requests/{id}/close', { params: { path: { id } }, body: { state } }))).data;

/**
 * Closes a request. On success it leaves the cached open list at once (and with it the navigation's count); either
 * way both lists are read again, since a refusal (already closed by another admin) means the open list is stale.
 */
export function useCloseRemovalRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, state }: { id: number; state: CloseRemovalRequest['state'] }) => closeRemovalRequest(id, state),
    onSuccess: (closed) => {
      queryClient.setQueryData(removalRequestsQueryOptions('open').queryKey, (list: RemovalRequestList | undefined) =>
        list ? { ...list, data: list.data.filter((request) => request.id !== closed.id) } : list,
      );
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: removalRequestsQueryKey });
    },
  });
}
