import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { VideoId, ViewCount } from '@/lib/api/types';

export const incrementViews = (body: VideoId) => api.post<ViewCount>('/api/video/increment-views', body);

export const useIncrementViews = () =>
  useMutation({ mutationFn: incrementViews, onError: (error) => console.error('Error counting the view', error) });
