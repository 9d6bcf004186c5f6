import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { PlaylistVideos } from '@/lib/api/types';

export const getPlaylist = (id: number, signal?: AbortSignal) =>
  api.get<PlaylistVideos>(`/api/playlists/${id}`, { signal });

export const playlistQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['watch', 'playlist', id],
    queryFn: ({ signal }) => getPlaylist(id, signal),
  });

export const usePlaylist = (id: number | null) =>
  useQuery({ ...playlistQueryOptions(id ?? 0), enabled: id !== null });
