import type { QueryClient } from '@tanstack/react-query';

/** The lists this feature reads from /api/me: each page is cached under ['lists', list, userId, page]. */
export type MyList = 'bookmarks' | 'watch-later' | 'likes' | 'history';

export const listsKeys = {
  list: (list: MyList, userId: string) => ['lists', list, userId] as const,
  page: (list: MyList, userId: string, page: number) => ['lists', list, userId, page] as const,
  historyPaused: (userId: string) => ['lists', 'history-paused', userId] as const,
  playlists: (userId: string) => ['lists', 'playlists', userId] as const,
  playlist: (id: number) => ['lists', 'playlist', id] as const,
};

/**
 * The watch page keeps copies of the same lists under keys of its own (features/watch/api: get-bookmarks,
 * get-watch-later, get-user-playlists, get-playlist). Features do not import each other, so these are the
 * prefixes of those keys, invalidated after every change made here so that the watch page agrees.
 */
export const watchKeys = {
  bookmarks: ['watch', 'bookmarks'] as const,
  watchLater: ['watch', 'watch-later'] as const,
  userPlaylists: ['watch', 'user-playlists'] as const,
  playlist: (id: number) => ['watch', 'playlist', id] as const,
};

/** After a playlist changed (renamed, deleted, reordered, a video removed): every copy of it is read again. */
export function invalidatePlaylist(queryClient: QueryClient, id: number, userId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: listsKeys.playlists(userId) }),
    queryClient.invalidateQueries({ queryKey: listsKeys.playlist(id) }),
    queryClient.invalidateQueries({ queryKey: watchKeys.userPlaylists }),
    queryClient.invalidateQueries({ queryKey: watchKeys.playlist(id) }),
  ]);
}
