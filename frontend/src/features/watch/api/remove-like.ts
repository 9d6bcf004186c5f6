import { useMutation } from '@tanstack/react-query';
import { removeLike } from '@/api/lists/list-actions';
import { ApiError } from '@/lib/api/client';
import type { VideoId } from '@/lib/api/types';

/** A member takes their like back (POST /api/video/remove-like); 409 NOT_LIKED is the caller's to read. */
export const useRemoveLike = () =>
  useMutation({
    mutationFn: ({ videoId }: VideoId) => removeLike(videoId),
    onError: (error) => {
      if (!(error instanceof ApiError && error.errorCode === 'NOT_LIKED')) console.error('Error taking back a like', error);
    },
  });
