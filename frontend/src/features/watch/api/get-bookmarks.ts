import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { BookmarkList } from '@/lib/api/types';

export const getBookmarks = async (userId: string, signal?: AbortSignal) =>
  throwIfError(await api.post<BookmarkList>('/api/video/get-bookmarks', { userId }, { signal }));

export const bookmarksQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['watch', 'bookmarks', userId],
    queryFn: ({ signal }) => getBookmarks(userId, signal),
  });

export const useBookmarks = (userId: string | null) =>
  useQuery({ ...bookmarksQueryOptions(userId ?? ''), enabled: userId !== null });
