import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { playlistKeys } from './keys';

/** GET /api/playlists/{id}: the playlist and its videos in playlist order; 403 for another's, 404 for none. */
export const getPlaylist = (id: number, signal?: AbortSignal) =>
  ok(api.GET('/api/playlists/{id}', { params: { path: { id } }, signal }));

export const playlistQueryOptions = (id: number) =>
  queryOptions({
    queryKey: playlistKeys.detail(id),
    queryFn: ({ signal }) => getPlaylist(id, signal),
  });

/**
 * The playlist, when there is one to read. `fresh` reads it again on every visit (the library page, since the
 * watch page adds videos to it); the watch page keeps a recent copy.
 */
export const usePlaylist = (id: number | null, { fresh = false } = {}) =>
  useQuery({ ...playlistQueryOptions(id ?? 0), enabled: id !== null, ...(fresh ? { staleTime: 0 } : {}) });
