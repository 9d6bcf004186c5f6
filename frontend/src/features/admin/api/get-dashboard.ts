import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import type { StatsPeriod } from './get-video-stats';

export type Dashboard = components['schemas']['DashboardDto'];
export type Ranking = Dashboard['rankings'][number];

/** GET /api/admin/dashboard: the site's last 7, 30 or 90 days at a glance (docs/decisions.md › "Dashboard"). */
export const useDashboard = (days: StatsPeriod) =>
  useQuery({
    queryKey: ['admin', 'dashboard', days],
    queryFn: ({ signal }) => ok(api.GET('/api/admin/dashboard', { params: { query: { days } }, signal })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    // An admin who keeps it open sees it move.
    refetchInterval: 60_000,
  });
