import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { UpdateProfileBody } from '@/lib/api/types';
import { USER_QUERY_KEY } from '@/lib/session';

export const updateProfile = (body: UpdateProfileBody) => ok(api.PATCH('/api/auth/me', { body }));

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: ({ user }) => queryClient.setQueryData(USER_QUERY_KEY, user),
  });
}
