import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidatePlaylist } from '@/api/playlists/invalidate-playlist';
import { playlistKeys } from '@/api/playlists/keys';
import { api, ok } from '@/lib/api/client';
import type { PlaylistVideos, ReorderPlaylist } from '@/lib/api/types';
import { orderByIds } from '../utils/reorder';

/** PUT /api/playlists/{id}/order with every video of the playlist, each once, in the new order. */
export const reorderPlaylist = (id: number, body: ReorderPlaylist) =>
  ok(api.PUT('/api/playlists/{id}/order', { params: { path: { id } }, body }));

/**
 * Reorders optimistically: the new order shows at once and goes back to the one before if the API refuses it.
 * Once the last of several quick moves has settled, the playlist is read again.
 */
export function useReorderPlaylist(playlistId: number, userId: string) {
  const queryClient = useQueryClient();
  const queryKey = playlistKeys.detail(playlistId);
  const mutationKey = ['lists', 'reorder', playlistId];
  return useMutation({
    mutationKey,
    mutationFn: (videoIds: number[]) => reorderPlaylist(playlistId, { video_ids: videoIds }),
    onMutate: async (videoIds) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<PlaylistVideos>(queryKey);
      queryClient.setQueryData<PlaylistVideos>(queryKey, (current) =>
        current ? { ...current, data: orderByIds(current.data, videoIds) } : current,
      );
      return { previous };
    },
    onError: (error, _videoIds, context) => {
      console.error('Error reordering the playlist', error);
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    // Not awaited: the mutation (and its failure notice) settles without waiting for the reads.
    onSettled: () => {
      if (queryClient.isMutating({ mutationKey }) === 1) void invalidatePlaylist(queryClient, playlistId, userId);
    },
  });
}
