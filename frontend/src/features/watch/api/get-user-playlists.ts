import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { PlaylistSummary, PlaylistList } from '@/lib/api/types';

/** The user's playlists; a failure is logged and reads as none, so the dialog still offers 'New playlist'. */
export async function getUserPlaylists(signal?: AbortSignal): Promise<PlaylistSummary[]> {
  try {
    return throwIfError(await api.get<PlaylistList>('/api/playlists/get-user-playlists', { signal })).data;
  } catch (error) {
    if (signal?.aborted) throw error;
    console.error('Error loading user playlists', error);
    return [];
  }
}

export const userPlaylistsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['watch', 'user-playlists', userId],
    queryFn: ({ signal }) => getUserPlaylists(signal),
    staleTime: 0,
  });

export const useUserPlaylists = (userId: string, enabled: boolean) =>
  useQuery({ ...userPlaylistsQueryOptions(userId), enabled });
