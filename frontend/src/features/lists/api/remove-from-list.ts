import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MyListPages } from '@/api/lists/get-my-list';
import { listKeys } from '@/api/lists/keys';
import { addToBookmarks, addToWatchLater, invalidateList, removeLike } from '@/api/lists/list-actions';
import { ApiError } from '@/lib/api/client';
import type { ListAction, VideoCard } from '@/lib/api/types';
import { likedKey, writeStorage } from '@/lib/storage';

/** The lists a member takes videos off here; history has its own removal (history-page). */
export type RemovableList = 'bookmarks' | 'watch-later' | 'likes';

/** Takes the like back; one already taken back (elsewhere) is off the list all the same. */
async function unlike({ videoId }: ListAction): Promise<void> {
  try {
    await removeLike(videoId);
  } catch (error) {
    if (!(error instanceof ApiError && error.errorCode === 'NOT_LIKED')) throw error;
  }
  writeStorage('local', likedKey(videoId), null);
}

const SEND = { bookmarks: addToBookmarks, 'watch-later': addToWatchLater, likes: unlike } as const satisfies Record<
  RemovableList,
  (body: ListAction) => Promise<unknown>
>;

/** POST add-to-bookmarks or add-to-watch-later with action "delete" (both idempotent), or remove-like. */
export const removeFromList = async (list: RemovableList, body: Omit<ListAction, 'action'>): Promise<void> => {
  await SEND[list]({ ...body, action: 'delete' });
};

/**
 * Takes a video off the member's bookmarks, watch-later queue or liked videos (taking the like back). On success the card leaves every cached page at
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
