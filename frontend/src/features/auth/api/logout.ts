import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { setSessionUser } from './session-cache';

export const logout = () => ok(api.POST('/api/auth/logout'));

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => setSessionUser(queryClient, null),
  });
}
