import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAdSlots } from '@/lib/ad-slots';
import { chooseSlot } from '../api/choose-slot';
import type { AdSlot } from '../api/get-ads';
import { postAdEvent, type AdEvent } from '../api/post-ad-event';
import { browserCanPlay } from '../utils/ad-media';
import { recordImpression } from '../utils/impressions';
import { pageMacros } from '../utils/macros';
import { loadVast, VAST_ERROR, VAST_TIMEOUT_MS, type VastAnswer } from '../utils/vast';
import { SandboxedAd } from './sandboxed-ad';

/** The size of a pause zone's HTML: the medium rectangle. */
const PAUSE_SIZE = { width: 300, height: 250 };

type Image = Extract<VastAnswer, { kind: 'image' }>;

/**
 * A pause ad, over the paused picture: an HTML zone in its sandboxed frame, or a VAST zone's non-linear image (a
 * companion's where it has none), with Close. Nothing plays by itself, and a VAST answer without an image shows
 * nothing. The player removes it when the content plays again.
 */
export function PauseAd({ videoId, onDone }: { videoId: number; onDone: () => void }) {
  const slots = useAdSlots();
  const embed = slots?.embed ?? false;
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<{ zone: AdSlot; vast: Image | null } | null>(null);
  const onDoneRef = useRef(onDone);
  useEffect(() => {
    onDoneRef.current = onDone;
  });
  const close = useCallback(() => onDoneRef.current(), []);

  useEffect(() => {
    let cancelled = false;
    const started = Date.now();
    void (async () => {
      const zone = await chooseSlot(queryClient, { placement: 'pause', embed, videoId }, VAST_TIMEOUT_MS, (slot) =>
        slot.kind === 'html' ? slot.html !== null : slot.vastUrl !== null,
      );
      if (cancelled) return;
      if (!zone) return close();
      postAdEvent(zone.id, 'request');
      if (zone.kind === 'html') {
        postAdEvent(zone.id, 'fill');
        return setShown({ zone, vast: null });
      }
      const vast = await loadVast(zone.vastUrl as string, {
        want: 'image',
        canPlay: browserCanPlay,
        targetWidth: 0,
        macros: pageMacros(),
        timeoutMs: Math.max(0, VAST_TIMEOUT_MS - (Date.now() - started)),
      });
      if (cancelled) return;
      if (vast.kind !== 'image') {
        postAdEvent(zone.id, 'error');
        return close();
      }
      postAdEvent(zone.id, 'fill');
      setShown({ zone, vast });
    })();
    return () => {
      cancelled = true;
    };
  }, [queryClient, embed, videoId, close]);

  if (!shown) return null;
  return <PauseCreative zone={shown.zone} vast={shown.vast} onClose={close} />;
}

function PauseCreative({ zone, vast, onClose }: { zone: AdSlot; vast: Image | null; onClose: () => void }) {
  const sent = useRef(new Set<AdEvent>());
  const once = (event: AdEvent, track?: () => void) => {
    if (sent.current.has(event)) return;
    sent.current.add(event);
    track?.();
    postAdEvent(zone.id, event);
  };
  const impression = () =>
    once('impression', () => {
      vast?.tracker.trackImpression();
      recordImpression(zone.id);
    });

  return (
    <div className="ad-pause">
      <div className="ad-pause__box" role="region" aria-label="Advertisement">
        <div className="ad-pause__bar">
          <p className="ad-label">Advertisement</p>
          <button
            className="ad-button"
            type="button"
            onClick={() => {
              vast?.tracker.close();
              onClose();
            }}
          >
            Close ad
          </button>
        </div>
        {vast ? (
          <ImageAd
            vast={vast}
            onLoad={impression}
            onClick={() => once('click', () => vast.tracker.click())}
            onError={() => {
              once('error', () => vast.tracker.error({ ERRORCODE: VAST_ERROR.nonLinearFetch }));
              onClose();
            }}
          />
        ) : (
          <SandboxedAd html={zone.html ?? ''} {...PAUSE_SIZE} onLoad={impression} />
        )}
      </div>
    </div>
  );
}

interface ImageAdProps {
  vast: Image;
  onLoad: () => void;
  onClick: () => void;
  onError: () => void;
}

/** The image, a link to the click-through (in a new tab) where the ad has one. */
function ImageAd({ vast, onLoad, onClick, onError }: ImageAdProps) {
  const image = (
    <img src={vast.image} alt="Advertisement" width={vast.width || undefined} height={vast.height || undefined} onLoad={onLoad} onError={onError} />
  );
  if (!vast.clickThrough) return image;
  return (
    <a
      className="ad-pause__link"
      href={vast.clickThrough}
      target="_blank"
      rel="noopener"
      aria-label="Advertisement: visit the advertiser (opens in a new tab)"
      onClick={onClick}
    >
      {image}
    </a>
  );
}
