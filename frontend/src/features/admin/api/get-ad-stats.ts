import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { adKeys } from './ad-zones';
import type { StatsPeriod } from './get-video-stats';

/** GET /api/admin/ad-stats: every zone's totals and the days summed over the last 7, 30 or 90 days (docs/ads.md). */
export const useAdStats = (days: StatsPeriod) =>
  useQuery({
    queryKey: adKeys.allStats(days),
    queryFn: ({ signal }) => ok(api.GET('/api/admin/ad-stats', { params: { query: { days } }, signal })),
    // Another period keeps the figures in place while its own come.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** GET /api/admin/ad-zones/{id}/stats: one zone's days and totals, as the video statistics answer theirs. */
export const useAdZoneStats = (id: number, days: StatsPeriod) =>
  useQuery({
    queryKey: adKeys.zoneStats(id, days),
    queryFn: ({ signal }) => ok(api.GET('/api/admin/ad-zones/{id}/stats', { params: { path: { id }, query: { days } }, signal })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
