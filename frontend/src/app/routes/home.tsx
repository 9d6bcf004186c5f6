import { useSearchParams } from 'react-router';
import { hasListingFilters, parseListingFilters } from '@hunktube/shared';
import { CatalogueListing } from '@/features/browse/components/catalogue-listing';
import { FeaturedRow } from '@/features/browse/components/featured-row';
import { useUser } from '@/features/auth/api/get-user';
import { ContinueRow } from '@/features/lists/components/continue-row';
import { FollowedRow } from '@/features/lists/components/followed-row';
import { parsePage } from '@/lib/page-param';

export function HomeRoute() {
  const [searchParams] = useSearchParams();
  // The rows are the unfiltered home page's: a filtered listing shows only what it asked for.
  const firstPage = parsePage(searchParams.get('page')) === 1 && !hasListingFilters(parseListingFilters((name) => searchParams.get(name)));
  const user = useUser();

  return (
    <CatalogueListing heading={(sort) => `${sort} videos`} empty="No videos yet.">
      {/* Rows of one browser or member: drawn once the session is known (the server's page has none). */}
      {firstPage && user.isSuccess && <ContinueRow user={user.data} />}
      {firstPage && user.data && <FollowedRow user={user.data} />}
      {firstPage && <FeaturedRow />}
    </CatalogueListing>
  );
}
