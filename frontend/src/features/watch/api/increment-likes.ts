import { useMutation } from '@tanstack/react-query';
import { api, ok, throwIfError } from '@/lib/api/client';
import type { VideoId } from '@/lib/api/types';

export const incrementLikes = async (body: VideoId) =>
  throwIfError(await ok(api.POST('/api/video/increment-likes', { body })));

export const useIncrementLikes = () =>
  useMutation({ mutationFn: incrementLikes, onError: (error) => console.error('Error liking video', error) });
