import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { BookmarkState, ListAction, VideoCard, WatchLaterState } from '@/lib/api/types';
import { listsKeys, watchKeys } from './cache';
import type { MyListPages } from './get-my-list';

/** The lists a member takes videos off here; likes and history have no per-video removal. */
export type RemovableList = 'bookmarks' | 'watch-later';

const ENDPOINTS = {
  bookmarks: '/api/video/add-to-bookmarks',
  'watch-later': '/api/video/add-to-watch-later',
} as const satisfies Record<RemovableList, string>;

const WATCH_KEYS = { bookmarks: watchKeys.bookmarks, 'watch-later': watchKeys.watchLater } as const;

/** POST add-to-bookmarks or add-to-watch-later with action "delete" (both idempotent). */
export const removeFromList = async (list: RemovableList, body: Omit<ListAction, 'action'>) =>
  throwIfError(
    await api.post<BookmarkState | WatchLaterState>(ENDPOINTS[list], { ...body, action: 'delete' } satisfies ListAction),
  );

/**
 * Takes a video off the member's bookmarks or watch-later queue. On success the card leaves every cached page at
 * once, then the pages (and the watch page's copy of the list) are read again so the next videos move up.
 */
export function useRemoveFromList(list: RemovableList, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (video: VideoCard) =>
      removeFromList(
        list,
        // The bookmark call carries the card, as the watch page sends it; the queue's body is {videoId, userId, action}.
        list === 'bookmarks' ? { video, videoId: video.id, userId } : { videoId: video.id, userId },
      ),
    onSuccess: (_state, video) => {
      queryClient.setQueriesData<MyListPages[RemovableList]>({ queryKey: listsKeys.list(list, userId) }, (page) =>
        page && page.data.some((item) => item.id === video.id)
          ? { ...page, data: page.data.filter((item) => item.id !== video.id), total: Math.max(page.total - 1, 0) }
          : page,
      );
      void queryClient.invalidateQueries({ queryKey: listsKeys.list(list, userId) });
      void queryClient.invalidateQueries({ queryKey: WATCH_KEYS[list] });
    },
    onError: (error) => console.error(`Error removing a video from ${list}`, error),
  });
}
