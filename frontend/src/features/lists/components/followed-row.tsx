import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { listKeys } from '@/api/lists/keys';
import { VideoRow } from '@/components/ui/video-row';
import { api, ok } from '@/lib/api/client';
import type { User } from '@/lib/api/types';
import { useSite } from '@/lib/site';

const ROW_COUNT = 8;

/**
 * The home page's row of the newest videos of the performers a member follows, with the way to all of them;
 * absent for a member who follows nobody (or whose performers have no video yet).
 */
export function FollowedRow({ user }: { user: User }) {
  const site = useSite();
  const videos = useQuery({
    // Under the feed's key, so that following or unfollowing someone reads it again.
    queryKey: [...listKeys.list('followed-videos', user.id), 'row'],
    queryFn: ({ signal }) => ok(api.GET('/api/me/followed-videos', { params: { query: { page: 1, limit: ROW_COUNT } }, signal })),
  });
  const cards = videos.data?.data ?? [];
  if (site.isPending || cards.length === 0) return null;
  return (
    <VideoRow
      heading="New from performers you follow"
      videos={cards}
      brand={site.data?.brand}
      imageHost={site.data?.imageHost}
      action={<Link to="/me/following/videos">See all</Link>}
    />
  );
}
