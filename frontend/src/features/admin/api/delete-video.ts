import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { NoError, Video } from '@/lib/api/types';

/** POST /api/admin/delete-video with the video object (the server reads its `id`). */
export const deleteVideo = async (video: Pick<Video, 'id'> & Partial<Video>): Promise<void> => {
  throwIfError(await api.post<NoError>('/api/admin/delete-video', video));
};

export function useDeleteVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVideo,
    onSuccess: (_result, video) => {
      queryClient.removeQueries({ queryKey: ['watch', 'video', video.id] });
      void queryClient.invalidateQueries({ queryKey: ['videos'] });
    },
  });
}
