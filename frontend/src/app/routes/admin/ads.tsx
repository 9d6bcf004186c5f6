import { useParams } from 'react-router';
import { AdZoneFiguresPage, AdZonesPage } from '@/features/admin/components/ad-zone-pages';
import { NotFoundRoute } from '../not-found';
import '@/features/admin/admin-manage.css';

const isZoneId = (id: string | undefined): id is string => Boolean(id && /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647);

/** /admin/ads: the ad zones, created, edited, switched and deleted, and their figures (docs/ads.md). */
export function AdminAdsRoute() {
  return <AdZonesPage />;
}

/** /admin/ads/:id: one zone's figures per day. */
export function AdminAdZoneRoute() {
  const { id } = useParams();
  if (!isZoneId(id)) return <NotFoundRoute />;
  return <AdZoneFiguresPage key={id} zoneId={Number(id)} />;
}
