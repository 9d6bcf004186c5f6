import { useMutation } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { VideoId } from '@/lib/api/types';

export const incrementViews = (body: VideoId) => ok(api.POST('/api/video/increment-views', { body }));

export const useIncrementViews = () =>
  useMutation({ mutationFn: incrementViews, onError: (error) => console.error('Error counting the view', error) });
