import { useId, type ReactNode } from 'react';
import { VideoCard, type VideoCardProps } from '@/components/ui/video-card';
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
  /** What a row adds to each card: where it leads, a footer, a progress bar. */
  cardProps?: (video: VideoCardData) => Pick<VideoCardProps, 'to' | 'footer' | 'resumeAt'>;
}

/** A titled row of cards that scrolls sideways (home's Featured, Continue watching, New from performers you follow). */
export function VideoRow({ heading, videos, brand, imageHost, action, first = false, cardProps }: VideoRowProps) {
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
            <VideoCard
              video={video}
              brand={brand}
              imageHost={imageHost}
              imagePriority={cardImagePriority(index, first)}
              {...cardProps?.(video)}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
