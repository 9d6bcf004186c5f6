import type { ExcludedTopics } from '@hunktube/shared';
import { queryOptions } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';

/** A member's hidden topics under ['hidden-topics', 'member', userId] (a guest's are under ['hidden-topics', 'guest']: lib/hidden-topics.ts). */
export const memberHiddenKey = (userId: string) => ['hidden-topics', 'member', userId] as const;

/** GET /api/me/hidden: the member's hidden categories, performers and tags (ids, each list sorted). */
export const getHiddenTopics = (signal?: AbortSignal): Promise<ExcludedTopics> => ok(api.GET('/api/me/hidden', { signal }));

/** PUT /api/me/hidden: all three lists replaced; answers them as stored. */
export const putHiddenTopics = (topics: ExcludedTopics): Promise<ExcludedTopics> => ok(api.PUT('/api/me/hidden', { body: topics }));

export const memberHiddenQueryOptions = (userId: string) =>
  queryOptions({ queryKey: memberHiddenKey(userId), queryFn: ({ signal }) => getHiddenTopics(signal), staleTime: 60_000 });
