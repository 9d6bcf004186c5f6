import { useMutation, useQueryClient } from '@tanstack/react-query';
import { videoKeys } from '@/api/videos/keys';
import { api, ok, throwIfError } from '@/lib/api/client';
import type { Video } from '@/lib/api/types';

/** POST /api/admin/delete-video with the video object (the server reads its `id`). */
export const deleteVideo = async (video: Pick<Video, 'id'> & Partial<Video>): Promise<void> => {
  throwIfError(await ok(api.POST('/api/admin/delete-video', { body: video })));
};

export function useDeleteVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVideo,
    onSuccess: (_result, video) => {
      queryClient.removeQueries({ queryKey: videoKeys.detail(video.id) });
      void queryClient.invalidateQueries({ queryKey: videoKeys.lists });
    },
  });
}
