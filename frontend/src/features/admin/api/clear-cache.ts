import { useMutation } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { NoError } from '@/lib/api/types';

/**
 * POST /api/admin/clear-cache with an empty body: empties every response cache of the server. A non-2xx
 * answer or a non-null `error` field rejects (an ApiError).
 */
export const clearCache = async (): Promise<void> => {
  throwIfError(await api.post<NoError>('/api/admin/clear-cache'));
};

export const useClearCache = () => useMutation({ mutationFn: clearCache });
