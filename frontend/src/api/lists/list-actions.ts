import type { QueryClient } from '@tanstack/react-query';
import { api, ApiError, ok, throwIfError } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import type { ListAction } from '@/lib/api/types';
import { listKeys, type MyList } from './keys';

/**
 * The body as the contract types it: the document declares the accepted-and-ignored `video` as an empty
 * object, while the client sends the card it holds (types.ts, ListAction).
 */
const asBody = (body: ListAction) => body as components['schemas']['ListActionDto'];

/** POST /api/video/add-to-bookmarks with action "create" or "delete" (idempotent). */
export const addToBookmarks = async (body: ListAction) =>
  throwIfError(await ok(api.POST('/api/video/add-to-bookmarks', { body: asBody(body) })));

/** POST /api/video/add-to-watch-later with action "create" or "delete" (idempotent). */
export const addToWatchLater = async (body: ListAction) =>
  throwIfError(await ok(api.POST('/api/video/add-to-watch-later', { body: asBody(body) })));

/**
 * POST /api/video/remove-like: a member takes their like back (docs/decisions.md, "Likes taken back"); the answer is the
 * video's count. 409 NOT_LIKED when they do not like it.
 */
export const removeLike = async (videoId: number) => ok(api.POST('/api/video/remove-like', { body: { videoId } }));

/** The console line of a failed queue change: the server's error, or a network failure. */
export function logWatchLaterError(error: unknown): void {
  if (error instanceof ApiError) console.error('Error adding to your watch later queue', error.serverError || 'Unknown error');
  else console.error('Error communicating with API', error);
}

/** After a list changed: every view of it (its pages, and the watch page's bookmarks or queue) is read again. */
export function invalidateList(queryClient: QueryClient, list: MyList, userId: string): Promise<unknown> {
  const views: (readonly unknown[])[] = [listKeys.list(list, userId)];
  if (list === 'bookmarks') views.push(listKeys.allBookmarks(userId));
  if (list === 'watch-later') views.push(listKeys.queue(userId));
  return Promise.all(views.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
