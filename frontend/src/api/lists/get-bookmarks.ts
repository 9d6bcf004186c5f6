import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok, throwIfError } from '@/lib/api/client';
import { listKeys } from './keys';

/** POST /api/video/get-bookmarks: every video the member bookmarked (the watch page's bookmark toggle). */
export const getBookmarks = async (userId: string, signal?: AbortSignal) =>
  throwIfError(await ok(api.POST('/api/video/get-bookmarks', { body: { userId }, signal })));

export const bookmarksQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: listKeys.allBookmarks(userId),
    queryFn: ({ signal }) => getBookmarks(userId, signal),
  });

export const useBookmarks = (userId: string | null) =>
  useQuery({ ...bookmarksQueryOptions(userId ?? ''), enabled: userId !== null });
