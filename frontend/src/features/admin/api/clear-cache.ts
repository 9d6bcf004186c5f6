import { useMutation } from '@tanstack/react-query';
import { api, NO_BODY, ok, throwIfError } from '@/lib/api/client';

/**
 * POST /api/admin/clear-cache with an empty body: empties every response cache of the server. A non-2xx
 * answer or a non-null `error` field rejects (an ApiError).
 */
export const clearCache = async (): Promise<void> => {
  throwIfError(await ok(api.POST('/api/admin/clear-cache', { body: NO_BODY })));
};

export const useClearCache = () => useMutation({ mutationFn: clearCache });
