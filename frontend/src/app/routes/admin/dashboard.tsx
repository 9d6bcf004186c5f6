import { SiteDashboard } from '@/features/admin/components/site-dashboard';

/** /admin: the site dashboard (README › "Dashboard"). */
export function AdminDashboardRoute() {
  return <SiteDashboard />;
}
