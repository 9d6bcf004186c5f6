import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { LoginBody, Session } from '@/lib/api/types';
import { setSessionUser } from './session-cache';

export const login = (body: LoginBody) => api.post<Session>('/api/auth/login', body);

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => setSessionUser(queryClient, user),
  });
}
