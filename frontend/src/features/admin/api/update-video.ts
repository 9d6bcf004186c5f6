import { useMutation, useQueryClient } from '@tanstack/react-query';
import { videoKeys } from '@/api/videos/keys';
import { api, ok, throwIfError } from '@/lib/api/client';
import type { Video } from '@/lib/api/types';

/**
 * POST /api/admin/update-video with the whole video. Resolves with the saved video; a non-2xx answer or a
 * non-null `error` field rejects (an ApiError).
 */
export const updateVideo = async (video: Video): Promise<Video> =>
  throwIfError(await ok(api.POST('/api/admin/update-video', { body: video }))).data;

/** Saves a video and refreshes every cached read of it (the watch page, listings) once the API agreed. */
export function useUpdateVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVideo,
    onSuccess: (saved) => {
      queryClient.setQueryData(videoKeys.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: videoKeys.lists });
    },
  });
}
