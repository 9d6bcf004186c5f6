import { notifyManager, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { User } from './api/types';

/**
 * Who is signed in, in the query cache: `GET /api/auth/me`'s answer (features/auth/api/get-user.ts reads it and
 * sets it at each sign-in and sign-out; the server's page seeds it from the bootstrap block).
 */
export const USER_QUERY_KEY = ['auth', 'me'] as const;

/**
 * Who is signed in as the query cache holds it, without asking the API: the member, null for a guest, undefined
 * until known. For the shared layers, which import no feature (the auth feature reads the session, and the
 * layout always does).
 */
export function useSessionUser(): User | null | undefined {
  const queryClient = useQueryClient();
  // As TanStack Query's own useIsFetching: told after the cache's batch, never while another component renders.
  const subscribe = useCallback((onChange: () => void) => queryClient.getQueryCache().subscribe(notifyManager.batchCalls(onChange)), [queryClient]);
  const read = () => queryClient.getQueryData<User | null>(USER_QUERY_KEY);
  return useSyncExternalStore(subscribe, read, read);
}
