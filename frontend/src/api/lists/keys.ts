/** The member's lists under /api/me, read a page at a time (followed-videos: the followed performers' newest). */
export type MyList = 'bookmarks' | 'watch-later' | 'likes' | 'history' | 'followed-videos';

/**
 * Everything here sits under ['lists', …, userId]. A list's pages are under ['lists', list, userId, page]; the
 * watch page reads two other views of the same data: every bookmark at once (the bookmark toggle), and the
 * queue's first page (the watch-later player). `invalidateList` reads every view of a list again.
 */
export const listKeys = {
  list: (list: MyList, userId: string) => ['lists', list, userId] as const,
  page: (list: MyList, userId: string, page: number) => ['lists', list, userId, page] as const,
  /** POST /api/video/get-bookmarks: every bookmarked card. */
  allBookmarks: (userId: string) => ['lists', 'all-bookmarks', userId] as const,
  /** The watch-later queue as the player walks through it. */
  queue: (userId: string) => ['lists', 'queue', userId] as const,
  historyPaused: (userId: string) => ['lists', 'history-paused', userId] as const,
  /** GET /api/me/continue-watching: the home page's row, from the history's resume positions. */
  continueWatching: (userId: string) => ['lists', 'continue-watching', userId] as const,
};
