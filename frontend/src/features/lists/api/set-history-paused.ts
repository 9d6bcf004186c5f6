import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { HistoryPaused } from '@/lib/api/types';
import { listsKeys } from './cache';

/** PUT /api/me/history/paused: stops or resumes recording the member's viewing history. */
export const setHistoryPaused = (body: HistoryPaused) => api.put<HistoryPaused>('/api/me/history/paused', body);

/** The toggle shows the state the API answered, not the one asked for. */
export function useSetHistoryPaused(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setHistoryPaused,
    onSuccess: (state) => queryClient.setQueryData(listsKeys.historyPaused(userId), state),
    onError: (error) => console.error('Error changing whether history is recorded', error),
  });
}
