import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { PlaylistSummary, PlaylistVideos, RenamedPlaylist, UpdatePlaylist } from '@/lib/api/types';
import { invalidatePlaylist, listsKeys } from './cache';

/** PATCH /api/playlists/{id}: 400 with the title rule's message, 409 `23505` when the member has that title. */
export const renamePlaylist = (id: number, body: UpdatePlaylist) =>
  api.patch<RenamedPlaylist>(`/api/playlists/${id}`, body);

export function useRenamePlaylist(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: number; title: string }) => renamePlaylist(id, { title }),
    onSuccess: ({ playlist }, { id }) => {
      // The new title shows at once; the reads that follow confirm it.
      queryClient.setQueryData<PlaylistSummary[]>(listsKeys.playlists(userId), (list) =>
        list?.map((item) => (item.playlist_id === id ? { ...item, title: playlist.title } : item)),
      );
      queryClient.setQueryData<PlaylistVideos>(listsKeys.playlist(id), (current) =>
        current ? { ...current, playlist } : current,
      );
      void invalidatePlaylist(queryClient, id, userId);
    },
  });
}
