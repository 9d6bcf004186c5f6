import type { Brand, VideoCard as VideoCardData } from '@/lib/api/types';
import { VideoCard } from './video-card';

interface VideoGridProps {
  videos: VideoCardData[];
  brand?: Brand;
  imageHost?: string;
  /** Marks the grid busy while a new page replaces this one. */
  busy?: boolean;
}

export function VideoGrid({ videos, brand, imageHost, busy = false }: VideoGridProps) {
  return (
    // role="list" keeps list semantics in Safari, which drops them when list-style is none.
    <ul className="video-grid" role="list" aria-busy={busy}>
      {videos.map((video) => (
        <li key={video.id}>
          <VideoCard video={video} brand={brand} imageHost={imageHost} />
        </li>
      ))}
    </ul>
  );
}

export function VideoGridSkeleton({ count = 12 }: { count?: number }) {
  return (
    <div className="video-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div className="video-card video-card--skeleton" key={i}>
          <div className="thumbnail skeleton" />
          <div className="skeleton skeleton--line" />
          <div className="skeleton skeleton--line skeleton--short" />
        </div>
      ))}
    </div>
  );
}
