import { useId } from 'react';
import { useVideos } from '@/api/videos/get-videos';
import { VideoCard } from '@/components/ui/video-card';
import { cardImagePriority } from '@/components/ui/video-grid';
import { useSite } from '@/lib/site';

const FEATURED_COUNT = 8;

/** The home page's row of featured videos (the admins' picks); absent when none are featured. */
export function FeaturedRow() {
  const headingId = useId();
  const site = useSite();
  const featured = useVideos({ featured: true, sort: 'newest', limit: FEATURED_COUNT });
  const videos = featured.data?.data ?? [];
  // A failed or empty row simply does not show: the main grid below is the page's content.
  if (site.isPending || videos.length === 0) return null;

  return (
    <section className="featured-row" aria-labelledby={headingId}>
      <h2 id={headingId} className="featured-row__heading">
        Featured
      </h2>
      <ul className="featured-row__list" role="list">
        {videos.map((video, index) => (
          <li key={video.id}>
            <VideoCard
              video={video}
              brand={site.data?.brand}
              imageHost={site.data?.imageHost}
              imagePriority={cardImagePriority(index, true)}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
