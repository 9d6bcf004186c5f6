import { useEffect, useRef, useState } from 'react';
import { useAdSlots, type BannerPlacement, type BannerSlotProps } from '@/lib/ad-slots';
import { useAdSlotsQuery, type AdSlot } from '../api/get-ads';
import { postAdEvent } from '../api/post-ad-event';
import { useAfterFirstPicture } from '../hooks/use-after-first-picture';
import { chooseZone } from '../utils/choose-zone';
import { readImpressions, recordImpression } from '../utils/impressions';
import { SandboxedAd } from './sandboxed-ad';
import '../ads.css';

/** The frame is made this close to the viewport, before it scrolls into view. */
export const LOAD_MARGIN = '200px';

export interface BannerSize {
  width: number;
  height: number;
}

/**
 * The banner's size in a slot `available` pixels wide: the leaderboard (728×90) where it fits, else the medium
 * rectangle (300×250) in the listings and the watch page, the mobile banner (320×50) in the footer.
 */
export function bannerSize(placement: BannerPlacement, available: number): BannerSize {
  if (available >= 728) return { width: 728, height: 90 };
  return placement === 'banner-footer' ? { width: 320, height: 50 } : { width: 300, height: 250 };
}

/**
 * Whether the page below `marker` is out of sight, so that a box put there moves nothing the visitor sees: the
 * bottom of the element before it (the top of its parent, for a first child) is at or under the viewport's bottom.
 */
export function belowTheFold(marker: Element): boolean {
  const before = marker.previousElementSibling;
  const top = before ? before.getBoundingClientRect().bottom : (marker.parentElement?.getBoundingClientRect().top ?? 0);
  return top >= window.innerHeight;
}

/**
 * A banner slot (AdSlots.AdBanner), labelled "Advertisement". Nothing of it is drawn on the server or before the
 * page's first picture; then the zones are asked for, and one is chosen (by weight, under its cap) only if its
 * spot is out of sight: its box is reserved at the banner's fixed size there, so nothing the visitor sees moves,
 * and left out for this page otherwise (docs/ads.md › "Web client"). The zone's HTML goes in its sandboxed frame
 * once the box is near the viewport.
 */
export function AdBanner({ placement, videoId }: BannerSlotProps) {
  const slots = useAdSlots();
  const painted = useAfterFirstPicture();
  const answer = useAdSlotsQuery({ placement, embed: slots?.embed ?? false, videoId }, (slots?.enabled ?? false) && painted);
  const markerRef = useRef<HTMLSpanElement>(null);
  const [placed, setPlaced] = useState<{ zone: AdSlot; size: BannerSize } | null>(null);
  const zones = answer.data?.data;

  useEffect(() => {
    const marker = markerRef.current;
    if (placed || !zones || !marker || !belowTheFold(marker)) return;
    const zone = chooseZone(
      zones.filter((slot) => slot.kind === 'html' && slot.html),
      readImpressions(),
      Date.now(),
    );
    if (!zone) return;
    postAdEvent(zone.id, 'request');
    postAdEvent(zone.id, 'fill');
    setPlaced({ zone, size: bannerSize(placement, marker.parentElement?.clientWidth ?? 0) });
  }, [zones, placed, placement]);

  if (!zones) return null;
  // A hidden marker generates no box (no gap in a grid): it only tells where the slot would go.
  if (!placed) return <span ref={markerRef} hidden />;
  return <BannerBox zone={placed.zone} size={placed.size} />;
}

function BannerBox({ zone, size }: { zone: AdSlot; size: BannerSize }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const counted = useRef(false);

  useEffect(() => {
    const box = boxRef.current;
    if (!box || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setNear(true);
      },
      { rootMargin: LOAD_MARGIN },
    );
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  return (
    <aside className="ad-banner" aria-label="Advertisement">
      <p className="ad-label">Advertisement</p>
      <div ref={boxRef} className="ad-banner__box" style={{ width: size.width, height: size.height }}>
        {near && (
          <SandboxedAd
            html={zone.html ?? ''}
            {...size}
            onLoad={() => {
              if (counted.current) return;
              counted.current = true;
              postAdEvent(zone.id, 'impression');
              recordImpression(zone.id);
            }}
          />
        )}
      </div>
    </aside>
  );
}
