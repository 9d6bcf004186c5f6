import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidatePlaylist } from '@/api/playlists/invalidate-playlist';
import { playlistKeys } from '@/api/playlists/keys';
import { api, ok } from '@/lib/api/client';
import type { PlaylistVideos } from '@/lib/api/types';

/** DELETE /api/playlists/{id}/videos/{videoId}. */
export const removePlaylistVideo = (id: number, videoId: number) =>
  ok(api.DELETE('/api/playlists/{id}/videos/{videoId}', { params: { path: { id, videoId } } }));

export function useRemovePlaylistVideo(playlistId: number, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (videoId: number) => removePlaylistVideo(playlistId, videoId),
    onSuccess: (_none, videoId) => {
      queryClient.setQueryData<PlaylistVideos>(playlistKeys.detail(playlistId), (current) =>
        current ? { ...current, data: current.data.filter((video) => video.id !== videoId) } : current,
      );
    },
    onError: (error) => console.error('Error removing a video from the playlist', error),
    onSettled: () => void invalidatePlaylist(queryClient, playlistId, userId),
  });
}
