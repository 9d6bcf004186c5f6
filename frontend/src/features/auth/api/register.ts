import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { RegisterBody } from '@/lib/api/types';
import { setSessionUser } from './session-cache';

export const register = (body: RegisterBody) => ok(api.POST('/api/auth/register', { body }));

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: ({ user }) => setSessionUser(queryClient, user),
  });
}
