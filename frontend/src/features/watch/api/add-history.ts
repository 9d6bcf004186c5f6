import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { WatchedVideo } from '@/lib/api/types';

export const addHistory = (body: WatchedVideo) => api.post<void>('/api/video/add-history', body);

export const useAddHistory = () =>
  useMutation({ mutationFn: addHistory, onError: (error) => console.error('Error adding to history', error) });
