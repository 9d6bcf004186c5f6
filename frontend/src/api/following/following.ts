import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listKeys } from '@/api/lists/keys';
import { api, ok } from '@/lib/api/client';
import type { FollowedPerformer, FollowingList } from '@/lib/api/types';

/** The performers a member follows (docs/decisions.md › "Following performers"): under ['following', userId]. */
export const followingKeys = {
  all: (userId: string) => ['following', userId] as const,
};

/** GET /api/me/following: every performer followed (at most 500), most recent first. */
export const getFollowing = (signal?: AbortSignal): Promise<FollowingList> => ok(api.GET('/api/me/following', { signal }));

export const followingQueryOptions = (userId: string) =>
  queryOptions({ queryKey: followingKeys.all(userId), queryFn: ({ signal }) => getFollowing(signal), staleTime: 30_000 });

/** The member's followed performers; nothing for a visitor (null). */
export const useFollowing = (userId: string | null) =>
  useQuery({ ...followingQueryOptions(userId ?? ''), enabled: userId !== null });

/** PUT or DELETE /api/me/following/{performerId}: both idempotent. */
export async function setFollow(performerId: string, follow: boolean): Promise<boolean> {
  const params = { params: { path: { performerId } } };
  const state = await ok(
    follow ? api.PUT('/api/me/following/{performerId}', { ...params, body: {} }) : api.DELETE('/api/me/following/{performerId}', params),
  );
  return state.following;
}

/**
 * Follows or unfollows a performer. The list changes on screen at once (the button, the Following page); then
 * the list and the feed of their videos are read again.
 */
export function useSetFollow(userId: string) {
  const queryClient = useQueryClient();
  const key = followingKeys.all(userId);
  return useMutation({
    mutationFn: ({ performer, follow }: { performer: Pick<FollowedPerformer, 'id' | 'name'>; follow: boolean }) => setFollow(performer.id, follow),
    onMutate: async ({ performer, follow }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<FollowingList>(key);
      if (before) {
        const rest = before.data.filter((item) => item.id !== performer.id);
        const added: FollowedPerformer = { id: performer.id, name: performer.name, video_count: 0, followed_at: new Date().toISOString() };
        queryClient.setQueryData<FollowingList>(key, { data: follow ? [before.data.find((item) => item.id === performer.id) ?? added, ...rest] : rest });
      }
      return { before };
    },
    onError: (error, _change, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      console.error('Error changing whom you follow', error);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: listKeys.list('followed-videos', userId) });
    },
  });
}
