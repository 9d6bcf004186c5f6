import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { BookmarkList, BookmarkState, ListAction } from '@/lib/api/types';
import { bookmarksQueryOptions } from './get-bookmarks';

export const addToBookmarks = async (body: ListAction) =>
  throwIfError(await api.post<BookmarkState>('/api/video/add-to-bookmarks', body));

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
