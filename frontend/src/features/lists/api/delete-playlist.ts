import { useMutation, useQueryClient } from '@tanstack/react-query';
import { playlistKeys } from '@/api/playlists/keys';
import { api, ApiError, ok } from '@/lib/api/client';
import type { PlaylistSummary } from '@/lib/api/types';

/** DELETE /api/playlists/{id}: the playlist goes; its videos stay on the site. */
export const deletePlaylist = (id: number) => ok(api.DELETE('/api/playlists/{id}', { params: { path: { id } } }));

export function useDeletePlaylist(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlaylist,
    onSuccess: (_none, id) => {
      queryClient.setQueryData<PlaylistSummary[]>(playlistKeys.list(userId), (list) =>
        list?.filter((item) => item.playlist_id !== id),
      );
      void queryClient.invalidateQueries({ queryKey: playlistKeys.list(userId) });
      // The playlist's own page may still be on screen, about to leave: marked stale, not read again (it would 404).
      void queryClient.invalidateQueries({ queryKey: playlistKeys.detail(id), refetchType: 'none' });
    },
    onError: (error) => {
      // A 404 means it was already gone (deleted in another tab): the lists are read again to drop it.
      if (error instanceof ApiError && error.statusCode === 404) {
        void queryClient.invalidateQueries({ queryKey: playlistKeys.list(userId) });
      } else console.error('Error deleting playlist', error);
    },
  });
}
