import { useMutation } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { CreateRemovalRequest } from '@/lib/api/types';

/**
 * POST /api/removal-requests (anyone may send one): 201 `{id, video_ids}`, the id being the number the sender
 * quotes. 400 with the reason for a bad field or an address that is not a video here, 429 when rate limited.
 */
export const createRemovalRequest = (body: CreateRemovalRequest) =>
  ok(api.POST('/api/removal-requests', { body }));

export const useCreateRemovalRequest = () => useMutation({ mutationFn: createRemovalRequest });
