import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@/lib/api/types';
import { USER_QUERY_KEY } from './get-user';

/**
 * After a login, register or logout: the user query holds the new user at once, and everything else that was
 * read as the previous user (lists, bookmarks, playlists) is read again.
 */
export function setSessionUser(queryClient: QueryClient, user: User | null): void {
  queryClient.setQueryData(USER_QUERY_KEY, user);
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== USER_QUERY_KEY[0] });
}
