import { editPrecondition } from '@hunktube/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { taxonomyKeys } from '@/api/taxonomy/keys';
import { videoKeys } from '@/api/videos/keys';
import { api, ok, throwIfError } from '@/lib/api/client';
import type { Video } from '@/lib/api/types';

/**
 * POST /api/admin/update-video with the whole video, and with `If-Match` naming the version it was edited from
 * (`read`): the API answers 409 when another admin saved the video in between, and applies views and likes as
 * changes from the counts read, so that views counted while the form was open are kept. Resolves with the saved
 * video; a non-2xx answer or a non-null `error` field rejects (an ApiError).
 */
export const updateVideo = async (video: Video, read: Video): Promise<Video> =>
  throwIfError(
    await ok(api.POST('/api/admin/update-video', { body: video, params: { header: { 'If-Match': editPrecondition(read) } } })),
  ).data;

/** Saves a video and refreshes every cached read of it (the watch page, listings, taxa) once the API agreed. */
export function useUpdateVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ video, read }: { video: Video; read: Video }) => updateVideo(video, read),
    onSuccess: (saved) => {
      queryClient.setQueryData(videoKeys.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: videoKeys.lists });
      // Tags named for the first time were created, and the counts of videos per taxon may have moved.
      void queryClient.invalidateQueries({ queryKey: taxonomyKeys.all });
    },
  });
}
