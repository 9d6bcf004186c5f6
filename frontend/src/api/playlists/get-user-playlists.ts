import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok, throwIfError } from '@/lib/api/client';
import { playlistKeys } from './keys';

/** GET /api/playlists/get-user-playlists: the member's playlists, most recently changed first. */
export const getUserPlaylists = async (signal?: AbortSignal) =>
  throwIfError(await ok(api.GET('/api/playlists/get-user-playlists', { signal }))).data;

export const userPlaylistsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: playlistKeys.list(userId),
    queryFn: ({ signal }) => getUserPlaylists(signal),
    // The watch page adds playlists and videos to them, the library page renames and deletes: read again on
    // every visit.
    staleTime: 0,
  });

export const useUserPlaylists = (userId: string) => useQuery(userPlaylistsQueryOptions(userId));
