import { useMutation } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { VideoId } from '@/lib/api/types';

export const addTrending = (body: VideoId) => ok(api.POST('/api/video/add-trending', { body }));

export const useAddTrending = () =>
  useMutation({ mutationFn: addTrending, onError: (error) => console.error('Error adding trending signal', error) });
