import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { HistoryPage, VideoCardPage } from '@/lib/api/types';
import { listsKeys, type MyList } from './cache';

/** What GET /api/me/{list} answers: a page of video cards; history's also say when each was watched. */
export interface MyListPages {
  bookmarks: VideoCardPage;
  'watch-later': VideoCardPage;
  likes: VideoCardPage;
  history: HistoryPage;
}

export const LIST_PAGE_SIZE = 24;

/** GET /api/me/bookmarks, /api/me/watch-later, /api/me/likes or /api/me/history: one page, newest first. */
export const getMyList = <L extends MyList>(list: L, page: number, signal?: AbortSignal) =>
  api.get<MyListPages[L]>(`/api/me/${list}`, { query: { page, limit: LIST_PAGE_SIZE }, signal });

export const myListQueryOptions = <L extends MyList>(list: L, userId: string, page: number) =>
  queryOptions({
    queryKey: listsKeys.page(list, userId, page),
    queryFn: ({ signal }) => getMyList(list, page, signal),
    // Keep the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
    // The watch page changes these lists too (bookmark, queue, like, history): read again on every visit.
    staleTime: 0,
  });

export const useMyList = <L extends MyList>(list: L, userId: string, page: number) =>
  useQuery(myListQueryOptions(list, userId, page));
