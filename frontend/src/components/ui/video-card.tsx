import { useId } from 'react';
import { Link } from 'react-router';
import { DurationBadge } from '@/components/ui/duration-badge';
import { Thumbnail } from '@/components/ui/thumbnail';
import type { Brand, VideoCard as VideoCardData } from '@/lib/api/types';
import { formatCompactNumber, formatUploadAge } from '@/lib/format';
import { brandTitle, resolveImageUrl } from '@/lib/site';

interface VideoCardProps {
  video: VideoCardData;
  brand?: Brand;
  imageHost?: string;
}

export function VideoCard({ video, brand, imageHost }: VideoCardProps) {
  const titleId = useId();
  const title = brandTitle(video, brand);
  const uploaded = new Date(video.upload_date);

  return (
    <article className="video-card">
      {/* Named by the title alone, so screen readers do not read the title twice (image alt + heading). */}
      <Link className="video-card__link" to={`/video/${video.id}`} aria-labelledby={titleId}>
        <Thumbnail src={resolveImageUrl(video.thumbnail, imageHost)} alt={title} seed={video.id}>
          <DurationBadge seconds={video.duration} />
          {video.featured > 0 && <span className="video-card__featured">Featured</span>}
        </Thumbnail>
        <h3 className="video-card__title" id={titleId}>
          {title}
        </h3>
      </Link>
      <p className="video-card__meta">
        <span>
          {formatCompactNumber(video.views)} {video.views === 1 ? 'view' : 'views'}
        </span>
        <span aria-hidden="true"> · </span>
        <time
          dateTime={video.upload_date}
          title={Number.isNaN(uploaded.getTime()) ? undefined : uploaded.toLocaleDateString()}
        >
          {formatUploadAge(video.upload_date)}
        </time>
      </p>
    </article>
  );
}
