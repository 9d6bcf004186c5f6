import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api/client';
import type { PlaylistSummary } from '@/lib/api/types';
import { listsKeys, watchKeys } from './cache';

/** DELETE /api/playlists/{id}: the playlist goes; its videos stay on the site. */
export const deletePlaylist = (id: number) => api.delete<void>(`/api/playlists/${id}`);

export function useDeletePlaylist(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlaylist,
    onSuccess: (_none, id) => {
      queryClient.setQueryData<PlaylistSummary[]>(listsKeys.playlists(userId), (list) =>
        list?.filter((item) => item.playlist_id !== id),
      );
      void queryClient.invalidateQueries({ queryKey: listsKeys.playlists(userId) });
      void queryClient.invalidateQueries({ queryKey: watchKeys.userPlaylists });
      // The playlist's own page may still be on screen, about to leave: marked stale, not read again (it would 404).
      void queryClient.invalidateQueries({ queryKey: listsKeys.playlist(id), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: watchKeys.playlist(id), refetchType: 'none' });
    },
    onError: (error) => {
      // A 404 means it was already gone (deleted in another tab): the lists are read again to drop it.
      if (error instanceof ApiError && error.statusCode === 404) {
        void queryClient.invalidateQueries({ queryKey: listsKeys.playlists(userId) });
        void queryClient.invalidateQueries({ queryKey: watchKeys.userPlaylists });
      } else console.error('Error deleting playlist', error);
    },
  });
}
