import { useMutation, useQueryClient } from '@tanstack/react-query';
import { listKeys } from '@/api/lists/keys';
import { api, ok } from '@/lib/api/client';
import type { HistoryPage } from '@/lib/api/types';

/** DELETE /api/me/history: forgets every video the member watched. */
export const clearHistory = () => ok(api.DELETE('/api/me/history'));

export function useClearHistory(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearHistory,
    onSuccess: () => {
      // Every cached page is empty now; reading them again confirms it.
      queryClient.setQueriesData<HistoryPage>({ queryKey: listKeys.list('history', userId) }, (page) =>
        page ? { ...page, data: [], total: 0 } : page,
      );
      void queryClient.invalidateQueries({ queryKey: listKeys.list('history', userId) });
      // The resume positions went with it.
      void queryClient.invalidateQueries({ queryKey: listKeys.continueWatching(userId) });
    },
    onError: (error) => console.error('Error clearing history', error),
  });
}
