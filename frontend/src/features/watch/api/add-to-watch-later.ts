import { useMutation } from '@tanstack/react-query';
import { api, ApiError, throwIfError } from '@/lib/api/client';
import type { ListAction, WatchLaterState } from '@/lib/api/types';

export const addToWatchLater = async (body: ListAction) =>
  throwIfError(await api.post<WatchLaterState>('/api/video/add-to-watch-later', body));

/** The console line of a failed queue change: the server's error, or a network failure. */
export function logWatchLaterError(error: unknown): void {
  if (error instanceof ApiError) console.error('Error adding to your watch later queue', error.serverError || 'Unknown error');
  else console.error('Error communicating with API', error);
}

export const useAddToWatchLater = () => useMutation({ mutationFn: addToWatchLater, onError: logWatchLaterError });
