import { CARD_IMAGE_SIZES } from '@hunktube/shared';
import { useState, type CSSProperties, type ReactNode } from 'react';

interface ThumbnailProps {
  /** Resolved image URL, or null when there is none. */
  src: string | null;
  /** The image's WebP copies (resolveImageSrcSet), or null when it has none. */
  srcSet?: string | null;
  /** How wide the image shows, for choosing among `srcSet` (a card's width by default). */
  sizes?: string;
  /** The image's text alternative; empty when the image only decorates something already named. */
  alt: string;
  /** Seeds the placeholder's colours so neighbouring placeholders differ. */
  seed?: number;
  /** Overlays such as a duration badge. */
  children?: ReactNode;
  /**
   * How soon the image is needed: `lazy` (default) once it nears the screen; `eager` at once (the first cards of
   * a page, which are on the first screen); `high` at once and first (the page's largest image).
   */
  priority?: ImagePriority;
}

export type ImagePriority = 'lazy' | 'eager' | 'high';

/**
 * A 16:9 image that never shows a broken-image icon: with no source, or when the image fails to load, a
 * gradient placeholder takes its place. A stored image comes as the WebP copy nearest the size it shows; should
 * the copy fail, the original is tried before the placeholder.
 */
export function Thumbnail({ src, srcSet = null, sizes = CARD_IMAGE_SIZES, alt, seed = 0, children, priority = 'lazy' }: ThumbnailProps) {
  // What failed for this source: its copies, then the original too.
  const [failed, setFailed] = useState<{ src: string; what: 'copies' | 'original' } | null>(null);
  const failure = failed?.src === src ? failed.what : null;
  const showImage = src !== null && failure !== 'original';
  const copies = failure === null ? srcSet : null;
  const hue = (Math.abs(Math.trunc(seed)) * 47) % 360;

  const image = src !== null && (
    <img
      className="thumbnail__image"
      src={src}
      alt={alt}
      loading={priority === 'lazy' ? 'lazy' : 'eager'}
      {...(priority === 'high' ? { fetchPriority: 'high' as const } : {})}
      decoding="async"
      onError={() => setFailed({ src, what: copies ? 'copies' : 'original' })}
    />
  );

  return (
    <div className="thumbnail">
      {showImage ? (
        copies ? (
          <picture>
            <source type="image/webp" srcSet={copies} sizes={sizes} />
            {image}
          </picture>
        ) : (
          image
        )
      ) : (
        <div
          className="thumbnail__placeholder"
          // A decorative image (alt="") has a decorative placeholder; otherwise it says there is no picture.
          {...(alt ? { role: 'img', 'aria-label': 'No thumbnail' } : { 'aria-hidden': true })}
          style={{ '--thumbnail-hue': hue } as CSSProperties}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M8 5.5v13l10.5-6.5z" />
          </svg>
        </div>
      )}
      {children}
    </div>
  );
}
