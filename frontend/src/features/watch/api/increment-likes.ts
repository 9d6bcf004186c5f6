import { useMutation } from '@tanstack/react-query';
import { api, throwIfError } from '@/lib/api/client';
import type { LikeCount, VideoId } from '@/lib/api/types';

export const incrementLikes = async (body: VideoId) =>
  throwIfError(await api.post<LikeCount>('/api/video/increment-likes', body));

export const useIncrementLikes = () =>
  useMutation({ mutationFn: incrementLikes, onError: (error) => console.error('Error liking video', error) });
