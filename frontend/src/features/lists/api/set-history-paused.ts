import { useMutation, useQueryClient } from '@tanstack/react-query';
import { listKeys } from '@/api/lists/keys';
import { api, ok } from '@/lib/api/client';
import type { HistoryPaused } from '@/lib/api/types';

/** PUT /api/me/history/paused: stops or resumes recording the member's viewing history. */
export const setHistoryPaused = (body: HistoryPaused) => ok(api.PUT('/api/me/history/paused', { body }));

/** The toggle shows the state the API answered, not the one asked for. */
export function useSetHistoryPaused(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setHistoryPaused,
    onSuccess: (state) => {
      queryClient.setQueryData(listKeys.historyPaused(userId), state);
      // The home page's Continue watching row hides while history is paused.
      void queryClient.invalidateQueries({ queryKey: listKeys.continueWatching(userId) });
    },
    onError: (error) => console.error('Error changing whether history is recorded', error),
  });
}
