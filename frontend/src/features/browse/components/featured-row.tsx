import { useVideos } from '@/api/videos/get-videos';
import { VideoRow } from '@/components/ui/video-row';
import { useSite } from '@/lib/site';

const FEATURED_COUNT = 8;

/** The home page's row of featured videos (the admins' picks); absent when none are featured. */
export function FeaturedRow() {
  const site = useSite();
  const featured = useVideos({ featured: true, sort: 'newest', limit: FEATURED_COUNT });
  const videos = featured.data?.data ?? [];
  // A failed or empty row simply does not show: the main grid below is the page's content.
  if (site.isPending || videos.length === 0) return null;
  return <VideoRow heading="Featured" videos={videos} brand={site.data?.brand} imageHost={site.data?.imageHost} first />;
}
