import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { HistoryPage } from '@/lib/api/types';
import { listsKeys } from './cache';

/** DELETE /api/me/history: forgets every video the member watched. */
export const clearHistory = () => api.delete<void>('/api/me/history');

export function useClearHistory(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearHistory,
    onSuccess: () => {
      // Every cached page is empty now; reading them again confirms it.
      queryClient.setQueriesData<HistoryPage>({ queryKey: listsKeys.list('history', userId) }, (page) =>
        page ? { ...page, data: [], total: 0 } : page,
      );
      void queryClient.invalidateQueries({ queryKey: listsKeys.list('history', userId) });
    },
    onError: (error) => console.error('Error clearing history', error),
  });
}
