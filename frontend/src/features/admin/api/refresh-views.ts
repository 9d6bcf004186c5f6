import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { RefreshedViews } from '@/lib/api/types';

/**
 * POST /api/admin/refresh-views with an empty body: writes the buffered view and like counts now and
 * recomputes trending. A non-2xx answer or a non-null `error` field rejects (an ApiError).
 */
export const refreshViews = async (): Promise<RefreshedViews> =>
  throwIfError(await api.post<RefreshedViews>('/api/admin/refresh-views'));

export function useRefreshViews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshViews,
    // Counts and the trending order have moved: cached listings and videos are stale.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['videos'] });
      void queryClient.invalidateQueries({ queryKey: ['watch', 'video'] });
    },
  });
}
