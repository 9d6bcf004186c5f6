import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { PlaylistVideos } from '@/lib/api/types';
import { listsKeys } from './cache';

/** GET /api/playlists/{id}: the playlist and its videos in playlist order; 403 for another's, 404 for none. */
export const getPlaylist = (id: number, signal?: AbortSignal) =>
  api.get<PlaylistVideos>(`/api/playlists/${id}`, { signal });

export const playlistQueryOptions = (id: number) =>
  queryOptions({
    queryKey: listsKeys.playlist(id),
    queryFn: ({ signal }) => getPlaylist(id, signal),
    // The watch page adds videos to it: read again on every visit.
    staleTime: 0,
  });

export const usePlaylist = (id: number) => useQuery(playlistQueryOptions(id));
