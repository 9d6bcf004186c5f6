import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { PlaylistVideos } from '@/lib/api/types';
import { invalidatePlaylist, listsKeys } from './cache';

/** DELETE /api/playlists/{id}/videos/{videoId}. */
export const removePlaylistVideo = (id: number, videoId: number) =>
  api.delete<void>(`/api/playlists/${id}/videos/${videoId}`);

export function useRemovePlaylistVideo(playlistId: number, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (videoId: number) => removePlaylistVideo(playlistId, videoId),
    onSuccess: (_none, videoId) => {
      queryClient.setQueryData<PlaylistVideos>(listsKeys.playlist(playlistId), (current) =>
        current ? { ...current, data: current.data.filter((video) => video.id !== videoId) } : current,
      );
    },
    onError: (error) => console.error('Error removing a video from the playlist', error),
    onSettled: () => void invalidatePlaylist(queryClient, playlistId, userId),
  });
}
