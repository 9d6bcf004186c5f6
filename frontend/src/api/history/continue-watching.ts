import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listKeys } from '@/api/lists/keys';
import { api, ok } from '@/lib/api/client';
import type { ContinueWatching, VideoCard } from '@/lib/api/types';
import { useHiddenExclude } from '@/lib/hidden-topics';

/** How many videos the home page's row shows. */
export const CONTINUE_ROW_COUNT = 12;

/** GET /api/me/continue-watching: the member's videos started and not finished (none while history is paused). */
export const getContinueWatching = (signal?: AbortSignal): Promise<ContinueWatching> =>
  ok(api.GET('/api/me/continue-watching', { params: { query: { limit: CONTINUE_ROW_COUNT } }, signal }));

export const useContinueWatching = (userId: string) =>
  // Read again each time the home page shows: the watch page has just moved what it holds.
  useQuery({ queryKey: listKeys.continueWatching(userId), queryFn: ({ signal }) => getContinueWatching(signal), staleTime: 0 });

/**
 * PUT /api/me/history/{videoId}/position: where the member is in a video (null: finished). `keepalive` lets the
 * last one leave with the page.
 */
export const saveResumePosition = (videoId: number, position: number | null, keepalive = false) =>
  ok(api.PUT('/api/me/history/{videoId}/position', { params: { path: { videoId } }, body: { position }, keepalive }));

/** DELETE /api/me/continue-watching/{videoId}: out of the row at once; it stays in the history. */
export function useForgetContinueWatching(userId: string) {
  const queryClient = useQueryClient();
  const key = listKeys.continueWatching(userId);
  return useMutation({
    mutationFn: (videoId: number) => ok(api.DELETE('/api/me/continue-watching/{videoId}', { params: { path: { videoId } } })),
    onMutate: async (videoId) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<ContinueWatching>(key);
      if (before) queryClient.setQueryData<ContinueWatching>(key, { ...before, data: before.data.filter((card) => card.id !== videoId) });
      return { before };
    },
    onError: (error, _videoId, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      console.error('Error removing a video from Continue watching', error);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** Cards by id under ['cards', ids, exclude] (all of them under ['cards']). */
export const cardKeys = {
  all: ['cards'] as const,
  of: (ids: readonly number[], exclude: string) => ['cards', ids.join(','), exclude] as const,
};

/**
 * GET /api/cards: the published cards of these ids, in this order (a guest's row, kept by the browser), without
 * the guest's hidden topics (`exclude`, which the answer is read again for when it changes).
 */
export function useCardsByIds(ids: readonly number[]) {
  const exclude = useHiddenExclude();
  return useQuery({
    queryKey: cardKeys.of(ids, exclude),
    queryFn: ({ signal }): Promise<{ data: VideoCard[] }> => ok(api.GET('/api/cards', { params: { query: { ids: ids.join(','), exclude } }, signal })),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
