import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MyListPages } from '@/api/lists/get-my-list';
import { listKeys } from '@/api/lists/keys';
import { addToBookmarks, addToWatchLater, invalidateList } from '@/api/lists/list-actions';
import type { ListAction, VideoCard } from '@/lib/api/types';

/** The lists a member takes videos off here; likes and history have no per-video removal. */
export type RemovableList = 'bookmarks' | 'watch-later';

const SEND = { bookmarks: addToBookmarks, 'watch-later': addToWatchLater } as const satisfies Record<
  RemovableList,
  (body: ListAction) => Promise<unknown>
>;

/** POST add-to-bookmarks or add-to-watch-later with action "delete" (both idempotent). */
export const removeFromList = async (list: RemovableList, body: Omit<ListAction, 'action'>): Promise<void> => {
  await SEND[list]({ ...body, action: 'delete' });
};

/**
 * Takes a video off the member's bookmarks or watch-later queue. On success the card leaves every cached page at
 * once, then the pages (and the watch page's view of the list) are read again so the next videos move up.
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
      queryClient.setQueriesData<MyListPages[RemovableList]>({ queryKey: listKeys.list(list, userId) }, (page) =>
        page && page.data.some((item) => item.id === video.id)
          ? { ...page, data: page.data.filter((item) => item.id !== video.id), total: Math.max(page.total - 1, 0) }
          : page,
      );
      void invalidateList(queryClient, list, userId);
    },
    onError: (error) => console.error(`Error removing a video from ${list}`, error),
  });
}
