import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { PlaylistList } from '@/lib/api/types';
import { listsKeys } from './cache';

/** GET /api/playlists/get-user-playlists: the member's playlists, most recently changed first. */
export const getUserPlaylists = async (signal?: AbortSignal) =>
  throwIfError(await api.get<PlaylistList>('/api/playlists/get-user-playlists', { signal })).data;

// Unlike the watch page's picker, which reads a failure as "no playlists", this page says it failed.
export const userPlaylistsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: listsKeys.playlists(userId),
    queryFn: ({ signal }) => getUserPlaylists(signal),
    // The watch page adds playlists and videos to them: read again on every visit.
    staleTime: 0,
  });

export const useUserPlaylists = (userId: string) => useQuery(userPlaylistsQueryOptions(userId));
