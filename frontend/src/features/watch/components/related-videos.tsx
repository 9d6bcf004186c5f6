import { memo, useId } from 'react';
import { VideoGrid, VideoGridSkeleton } from '@/components/ui/video-grid';
import type { Brand, RelatedVideos as RelatedVideosData } from '@/lib/api/types';

/** When nothing is truly related, the hot videos shown instead are at most this many. */
export const HOT_VIDEOS_LIMIT = 6;

interface RelatedVideosProps {
  related: RelatedVideosData | undefined;
  siteName: string;
  brand?: Brand;
  imageHost?: string;
}

/**
 * The related videos under (or beside) the player. Memoised: the watch page draws itself again at each step of
 * playback and of its requests, and its cards need none of them (docs/web-client.md › "Boot work").
 */
export const RelatedVideos = memo(function RelatedVideos({ related, siteName, brand, imageHost }: RelatedVideosProps) {
  const headingId = useId();
  if (!related) {
    return (
      <section className="related" aria-busy="true">
        <VideoGridSkeleton count={6} />
      </section>
    );
  }
  const videos = related.related ? related.data : related.data.slice(0, HOT_VIDEOS_LIMIT);
  if (videos.length === 0) return null;

  return (
    <section className="related" aria-labelledby={headingId}>
      <h2 className="related__heading" id={headingId}>
        {related.related
          ? `Like this video? There's more on ${siteName}. Check out these related videos!`
          : `No related videos found. So here are some other HOT videos on ${siteName} you might like instead!`}
      </h2>
      <VideoGrid videos={videos} brand={brand} imageHost={imageHost} />
    </section>
  );
});
