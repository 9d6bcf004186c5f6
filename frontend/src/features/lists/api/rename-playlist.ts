import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidatePlaylist } from '@/api/playlists/invalidate-playlist';
import { playlistKeys } from '@/api/playlists/keys';
import { api, ok } from '@/lib/api/client';
import type { PlaylistSummary, PlaylistVideos, UpdatePlaylist } from '@/lib/api/types';

/** PATCH /api/playlists/{id}: 400 with the title rule's message, 409 `23505` when the member has that title. */
export const renamePlaylist = (id: number, body: UpdatePlaylist) =>
  ok(api.PATCH('/api/playlists/{id}', { params: { path: { id } }, body }));

export function useRenamePlaylist(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: number; title: string }) => renamePlaylist(id, { title }),
    onSuccess: ({ playlist }, { id }) => {
      // The new title shows at once; the reads that follow confirm it.
      queryClient.setQueryData<PlaylistSummary[]>(playlistKeys.list(userId), (list) =>
        list?.map((item) => (item.playlist_id === id ? { ...item, title: playlist.title } : item)),
      );
      queryClient.setQueryData<PlaylistVideos>(playlistKeys.detail(id), (current) =>
        current ? { ...current, playlist } : current,
      );
      void invalidatePlaylist(queryClient, id, userId);
    },
  });
}
