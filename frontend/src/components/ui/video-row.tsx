import { useId, type ReactNode } from 'react';
import { VideoCard } from '@/components/ui/video-card';
import { cardImagePriority } from '@/components/ui/video-grid';
import type { Brand, VideoCard as VideoCardData } from '@/lib/api/types';

interface VideoRowProps {
  heading: string;
  videos: readonly VideoCardData[];
  brand?: Brand;
  imageHost?: string;
  /** A link beside the heading (See all). */
  action?: ReactNode;
  /** Whether the row is the page's first screen: its first cards' images load at once. */
  first?: boolean;
}

/** A titled row of cards that scrolls sideways (home's Featured, New from performers you follow). */
export function VideoRow({ heading, videos, brand, imageHost, action, first = false }: VideoRowProps) {
  const headingId = useId();
  const title = (
    <h2 id={headingId} className="featured-row__heading">
      {heading}
    </h2>
  );
  return (
    <section className="featured-row" aria-labelledby={headingId}>
      {action ? (
        <div className="featured-row__head">
          {title}
          {action}
        </div>
      ) : (
        title
      )}
      <ul className="featured-row__list" role="list">
        {videos.map((video, index) => (
          <li key={video.id}>
            <VideoCard video={video} brand={brand} imageHost={imageHost} imagePriority={cardImagePriority(index, first)} />
          </li>
        ))}
      </ul>
    </section>
  );
}
