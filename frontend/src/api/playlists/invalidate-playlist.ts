import type { QueryClient } from '@tanstack/react-query';
import { playlistKeys } from './keys';

/** After a playlist changed (renamed, deleted, reordered, a video added or removed): it is read again. */
export function invalidatePlaylist(queryClient: QueryClient, id: number, userId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: playlistKeys.list(userId) }),
    queryClient.invalidateQueries({ queryKey: playlistKeys.detail(id) }),
  ]);
}
