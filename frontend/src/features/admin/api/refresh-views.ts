import { useMutation, useQueryClient } from '@tanstack/react-query';
import { videoKeys } from '@/api/videos/keys';
import { api, NO_BODY, ok, throwIfError } from '@/lib/api/client';

/**
 * POST /api/admin/refresh-views with an empty body: writes the buffered view and like counts now and
 * recomputes trending. A non-2xx answer or a non-null `error` field rejects (an ApiError).
 */
export const refreshViews = async () =>
  throwIfError(await ok(api.POST('/api/admin/refresh-views', { body: NO_BODY })));

export function useRefreshViews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshViews,
    // Counts and the trending order have moved: cached listings and videos are stale.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: videoKeys.lists });
      void queryClient.invalidateQueries({ queryKey: videoKeys.details });
    },
  });
}
