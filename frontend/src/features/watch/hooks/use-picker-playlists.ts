import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { userPlaylistsQueryOptions } from '@/api/playlists/get-user-playlists';
import type { PlaylistSummary } from '@/lib/api/types';

const NONE: PlaylistSummary[] = [];

/**
 * The member's playlists for the playlist picker, read while it is open. A failure is logged and reads as none
 * (at once, without retries), so the dialog still offers 'New playlist'.
 */
export function usePickerPlaylists(userId: string, enabled: boolean): { all: PlaylistSummary[]; isPending: boolean } {
  const playlists = useQuery({ ...userPlaylistsQueryOptions(userId), enabled, retry: false });
  useEffect(() => {
    if (playlists.error) console.error('Error loading user playlists', playlists.error);
  }, [playlists.error]);
  return { all: playlists.data ?? NONE, isPending: playlists.isPending };
}
