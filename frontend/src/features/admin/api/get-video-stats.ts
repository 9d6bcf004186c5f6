import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

export type VideoStats = components['schemas']['VideoStatsDto'];
export type StatsPeriod = 7 | 30 | 90;
export const STATS_PERIODS: readonly StatsPeriod[] = [7, 30, 90];

/** GET /api/admin/videos/{id}/stats: a video's days, lifetime counts and ranks (docs/decisions.md › "Statistics"). */
export const useVideoStats = (id: number, days: StatsPeriod) =>
  useQuery({
    queryKey: ['admin', 'video-stats', id, days],
    queryFn: ({ signal }) => ok(api.GET('/api/admin/videos/{id}/stats', { params: { path: { id }, query: { days } }, signal })),
    // Another period keeps the chart in place while its figures come.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
