import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { LoginBody } from '@/lib/api/types';
import { setSessionUser } from './session-cache';

export const login = (body: LoginBody) => ok(api.POST('/api/auth/login', { body }));

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => setSessionUser(queryClient, user),
  });
}
