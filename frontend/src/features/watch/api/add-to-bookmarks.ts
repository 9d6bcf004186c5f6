import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookmarksQueryOptions } from '@/api/lists/get-bookmarks';
import { addToBookmarks } from '@/api/lists/list-actions';
import type { BookmarkList } from '@/lib/api/types';

/** Toggles a bookmark; the bookmark list (the toggle's state) changes only once the API has agreed. */
export function useAddToBookmarks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addToBookmarks,
    onSuccess: (_state, body) => {
      if (!body.userId) return;
      queryClient.setQueryData(bookmarksQueryOptions(body.userId).queryKey, (list?: BookmarkList) => {
        const others = (list?.bookmarks ?? []).filter((video) => video.id !== body.videoId);
        const bookmarks = body.action === 'create' && body.video ? [body.video, ...others] : others;
        return { bookmarks, error: null };
      });
    },
    onError: (error) => console.error('Error updating bookmarks', error),
  });
}
