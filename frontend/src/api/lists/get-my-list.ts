import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { HistoryPage, VideoCardPage } from '@/lib/api/types';
import { listKeys, type MyList } from './keys';

/** What GET /api/me/{list} answers: a page of video cards; history's also say when each was watched. */
export interface MyListPages {
  bookmarks: VideoCardPage;
  'watch-later': VideoCardPage;
  likes: VideoCardPage;
  history: HistoryPage;
  'followed-videos': VideoCardPage;
}

export const LIST_PAGE_SIZE = 24;
/** The queue's first page is the whole queue the player walks through (the API's largest page). */
const QUEUE_LIMIT = 60;

type PageQuery = { page: number; limit: number };

const fetchers: { [L in MyList]: (query: PageQuery, signal?: AbortSignal) => Promise<MyListPages[L]> } = {
  bookmarks: (query, signal) => ok(api.GET('/api/me/bookmarks', { params: { query }, signal })),
  'watch-later': (query, signal) => ok(api.GET('/api/me/watch-later', { params: { query }, signal })),
  likes: (query, signal) => ok(api.GET('/api/me/likes', { params: { query }, signal })),
  history: (query, signal) => ok(api.GET('/api/me/history', { params: { query }, signal })),
  'followed-videos': (query, signal) => ok(api.GET('/api/me/followed-videos', { params: { query }, signal })),
};

/** GET /api/me/bookmarks, /api/me/watch-later, /api/me/likes or /api/me/history: one page, newest first. */
export const getMyList = <L extends MyList>(list: L, page: number, signal?: AbortSignal): Promise<MyListPages[L]> =>
  fetchers[list]({ page, limit: LIST_PAGE_SIZE }, signal);

export const myListQueryOptions = <L extends MyList>(list: L, userId: string, page: number) =>
  queryOptions({
    queryKey: listKeys.page(list, userId, page),
    queryFn: ({ signal }) => getMyList(list, page, signal),
    // Keep the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
    // The watch page changes these lists too (bookmark, queue, like, history): read again on every visit.
    staleTime: 0,
  });

export const useMyList = <L extends MyList>(list: L, userId: string, page: number) =>
  useQuery(myListQueryOptions(list, userId, page));

/** GET /api/me/watch-later's first page, as large as the API gives: the queue the watch-later player plays. */
export const getWatchLaterQueue = (signal?: AbortSignal) => fetchers['watch-later']({ page: 1, limit: QUEUE_LIMIT }, signal);

export const watchLaterQueueQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: listKeys.queue(userId),
    queryFn: ({ signal }) => getWatchLaterQueue(signal),
  });

export const useWatchLaterQueue = (userId: string | null) =>
  useQuery({ ...watchLaterQueueQueryOptions(userId ?? ''), enabled: userId !== null });
