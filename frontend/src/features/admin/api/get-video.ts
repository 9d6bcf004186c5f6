import { queryOptions, useQuery } from '@tanstack/react-query';
import { getVideo } from '@/api/videos/get-video';

/**
 * A key of its own rather than the watch page's: the panel copies the video once, so it must start from a fresh
 * read (not a copy cached by an earlier visit of the watch page), and the invalidations that other admin actions
 * cause must not reload it under the admin's edits.
 */
export const editVideoQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'video', id],
    queryFn: ({ signal }) => getVideo(id, signal),
    staleTime: 0,
    gcTime: 0,
  });

export const useEditVideo = (id: number, enabled = true) => useQuery({ ...editVideoQueryOptions(id), enabled });
