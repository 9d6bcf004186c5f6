import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@/lib/api/types';
import type { Bootstrap } from '@/lib/bootstrap';
import { USER_QUERY_KEY } from '@/lib/session';

/**
 * After a login, register or logout: the user query holds the new user at once, and everything else that was
 * read as the previous user (lists, bookmarks, playlists) is read again.
 */
export function setSessionUser(queryClient: QueryClient, user: User | null): void {
  queryClient.setQueryData(USER_QUERY_KEY, user);
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== USER_QUERY_KEY[0] });
}

/**
 * At start: who the server's page says is signed in (its bootstrap block), so that the app does not ask
 * `GET /api/auth/me`, which answers a guest with a 401. Nothing when the page did not say (no block, or the
 * server could not tell): the user query asks the API as before.
 */
export function seedSession(queryClient: QueryClient, bootstrap: Bootstrap): void {
  if (bootstrap.user !== undefined) queryClient.setQueryData(USER_QUERY_KEY, bootstrap.user);
}
