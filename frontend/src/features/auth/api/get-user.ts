import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, ok } from '@/lib/api/client';
import type { User } from '@/lib/api/types';
import { USER_QUERY_KEY } from '@/lib/session';

/** The signed-in user, from the session cookie; null for a visitor (401). */
export async function getUser(signal?: AbortSignal): Promise<User | null> {
  try {
    const { user } = await ok(api.GET('/api/auth/me', { signal }));
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 401) return null;
    throw error;
  }
}

export const userQueryOptions = () =>
  queryOptions({
    queryKey: USER_QUERY_KEY,
    queryFn: ({ signal }) => getUser(signal),
    // A member is checked again now and then (a session can end elsewhere); a guest becomes a member only by
    // signing in here, which sets the query (setSessionUser): asking again would only fetch another 401.
    staleTime: (query) => (query.state.data === null ? Infinity : 5 * 60_000),
  });

export const useUser = () => useQuery(userQueryOptions());
