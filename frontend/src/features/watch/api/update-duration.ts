import { useMutation } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { UpdateDuration } from '@/lib/api/types';

export const updateDuration = (body: UpdateDuration) => ok(api.POST('/api/video/update-duration', { body }));

export const useUpdateDuration = () =>
  useMutation({ mutationFn: updateDuration, onError: (error) => console.error('Error saving the duration', error) });
