import { SiteDashboard } from '@/features/admin/components/site-dashboard';

/** /admin: the site dashboard (docs/decisions.md › "Dashboard"). */
export function AdminDashboardRoute() {
  return <SiteDashboard />;
}
