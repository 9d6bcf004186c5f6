import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { DurationValue, UpdateDuration } from '@/lib/api/types';

export const updateDuration = (body: UpdateDuration) => api.post<DurationValue>('/api/video/update-duration', body);

export const useUpdateDuration = () =>
  useMutation({ mutationFn: updateDuration, onError: (error) => console.error('Error saving the duration', error) });
