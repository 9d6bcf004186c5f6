import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigationType, type To } from 'react-router';
import { readStorage, SCROLL_TARGET_KEY, writeStorage } from '@/lib/storage';
import type { Brand, VideoCard as VideoCardData } from '@/lib/api/types';
import type { ImagePriority } from './thumbnail';
import { VideoCard } from './video-card';

interface VideoGridProps<T extends VideoCardData> {
  videos: T[];
  brand?: Brand;
  imageHost?: string;
  /** Marks the grid busy while a new page replaces this one. */
  busy?: boolean;
  /** Where each card leads (default: its watch page). */
  linkFor?: (video: T) => To;
  /** Extra content at the foot of each card (a Remove button, when it was watched). */
  footerFor?: (video: T) => ReactNode;
  /**
   * A grid at the top of its page: the first row's images load at once (never lazily), the first of them first,
   * as the page's largest image on a phone.
   */
  first?: boolean;
  /** The cards' heading level (VideoCard): 2 for a page's own grid, right under its h1. */
  headingLevel?: 2 | 3;
}

/** Cards in a grid's first row at the widest layout. */
export const FIRST_ROW = 4;

/** How soon a card's image is needed: the first row of a page's first grid at once, the rest lazily. */
export const cardImagePriority = (index: number, first: boolean): ImagePriority =>
  !first || index >= FIRST_ROW ? 'lazy' : index === 0 ? 'high' : 'eager';

export function VideoGrid<T extends VideoCardData>({
  videos,
  brand,
  imageHost,
  busy = false,
  linkFor,
  footerFor,
  first = false,
  headingLevel,
}: VideoGridProps<T>) {
  const list = useScrollBackTarget(videos);
  return (
    // role="list" keeps list semantics in Safari, which drops them when list-style is none.
    <ul className="video-grid" role="list" aria-busy={busy} ref={list}>
      {videos.map((video, index) => (
        <li key={video.id} data-slug={video.slug}>
          <VideoCard
            video={video}
            brand={brand}
            imageHost={imageHost}
            to={linkFor?.(video)}
            footer={footerFor?.(video)}
            imagePriority={cardImagePriority(index, first)}
            headingLevel={headingLevel}
          />
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

/**
 * Coming back (the back button) to a listing from a video: the router restores the scroll position when the
 * page is still cached; when it had to be fetched again, this brings the card of the video last watched (its
 * slug is kept in session storage by the watch page) into view. Either way that card's link gets the focus,
 * so keyboard users continue where they were.
 */
function useScrollBackTarget(videos: VideoCardData[]) {
  const list = useRef<HTMLUListElement>(null);
  const navigationType = useNavigationType();
  // The grid stays mounted from one listing to the next (one category page to another): once per visit.
  const { key } = useLocation();
  const doneFor = useRef<string | null>(null);

  useEffect(() => {
    if (doneFor.current === key || navigationType !== 'POP' || videos.length === 0) return;
    doneFor.current = key;
    const slug = readStorage('session', SCROLL_TARGET_KEY);
    if (!slug || !videos.some((video) => video.slug === slug)) return;
    writeStorage('session', SCROLL_TARGET_KEY, null);
    const item = Array.from(list.current?.children ?? []).find((node) => (node as HTMLElement).dataset.slug === slug);
    const link = item?.querySelector<HTMLElement>('a');
    if (!item || !link) return;
    // Where the restored position already shows most of the card's link (its picture and title), the page stays
    // exactly where the visitor left it, even with the card's edge cut off; else the card comes to the middle.
    const box = link.getBoundingClientRect();
    const shown = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
    if (shown < box.height / 2) item.scrollIntoView?.({ block: 'center' });
    link.focus({ preventScroll: true });
  }, [key, navigationType, videos]);

  return list;
}
