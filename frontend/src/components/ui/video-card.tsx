import { formatDuration } from '@hunktube/shared';
import { useId, type ReactNode } from 'react';
import { Link, type To } from 'react-router';
import { DurationBadge } from '@/components/ui/duration-badge';
import { HoverPreview, useHoverPreview } from '@/components/ui/hover-preview';
import { type ImagePriority, Thumbnail } from '@/components/ui/thumbnail';
import type { Brand, VideoCard as VideoCardData } from '@/lib/api/types';
import { formatCalendarDate, formatCompactNumber, formatUploadAge } from '@/lib/format';
import { brandTitle, resolveImageSrcSet, resolveImageUrl } from '@/lib/site';

export interface VideoCardProps {
  video: VideoCardData;
  brand?: Brand;
  imageHost?: string;
  /** Where the card leads: the video's watch page by default; a list passes its context (`?context=watch-later`). */
  to?: To;
  /** Extra content at the foot of the card, such as a Remove button. */
  footer?: ReactNode;
  /** How soon its image is needed (Thumbnail): lazy unless the card is on the first screen. */
  imagePriority?: ImagePriority;
  /** Where the viewer stopped (whole seconds): a progress bar over the image (Continue watching). */
  resumeAt?: number;
  /**
   * The title's heading level, one below the heading the card sits under: 2 in a page's own grid (under its
   * h1), 3 (the default) in a row or section that has an h2 of its own.
   */
  headingLevel?: 2 | 3;
}

export function VideoCard({ video, brand, imageHost, to, footer, imagePriority, resumeAt, headingLevel = 3 }: VideoCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const metaId = useId();
  const title = brandTitle(video, brand);
  const previewUrl = resolveImageUrl(video.preview, imageHost);
  const preview = useHoverPreview(previewUrl !== null);

  return (
    <article className="video-card" {...preview.handlers}>
      {/*
        The link is named by the title alone (its visible label): the image is decorative here (alt="") and the
        badges over it are for the eye; screen readers get the duration and the featured mark after the title.
      */}
      <Link className="video-card__link" to={to ?? `/video/${video.id}`} aria-describedby={metaId}>
        <Thumbnail
          src={resolveImageUrl(video.thumbnail, imageHost)}
          srcSet={resolveImageSrcSet(video.thumbnail, imageHost)}
          alt=""
          seed={video.id}
          priority={imagePriority}
        >
          {preview.active && previewUrl && <HoverPreview src={previewUrl} />}
          <span aria-hidden="true">
            <DurationBadge seconds={video.duration} />
            {video.featured > 0 && <span className="video-card__featured">Featured</span>}
            {resumeAt !== undefined && video.duration !== null && video.duration > 0 && (
              <progress className="video-card__progress" max={video.duration} value={Math.min(resumeAt, video.duration)} />
            )}
          </span>
        </Thumbnail>
        <Heading className="video-card__title">{title}</Heading>
      </Link>
      {/* Referenced by the link's aria-describedby (hidden content still counts there), read after its name. */}
      <span id={metaId} hidden>
        {[
          video.featured > 0 ? 'Featured' : null,
          durationText(video.duration),
          resumeAt === undefined ? null : resumeText(resumeAt, video.duration),
          `${formatCompactNumber(video.views)} ${video.views === 1 ? 'view' : 'views'}, ${formatUploadAge(video.upload_date)}`,
        ]
          .filter(Boolean)
          .join('. ')}
      </span>
      <p className="video-card__meta">
        <span>
          {formatCompactNumber(video.views)} {video.views === 1 ? 'view' : 'views'}
        </span>
        <span aria-hidden="true"> · </span>
        <time
          dateTime={video.upload_date}
          title={formatCalendarDate(video.upload_date) || undefined}
        >
          {formatUploadAge(video.upload_date)}
        </time>
      </p>
      {footer}
    </article>
  );
}

const resumeText = (seconds: number, duration: number | null) =>
  duration !== null && duration > 0 ? `Watched ${formatDuration(seconds)} of ${formatDuration(duration)}` : `Watched ${formatDuration(seconds)}`;

const durationText = (seconds: number | null) =>
  seconds !== null && Number.isFinite(seconds) && seconds >= 0 ? `Duration ${formatDuration(seconds)}` : 'Duration unknown';
