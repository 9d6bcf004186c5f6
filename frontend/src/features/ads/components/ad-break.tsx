import { formatDuration } from '@hunktube/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAdSlots, type AdBreakProps } from '@/lib/ad-slots';
import { chooseSlot } from '../api/choose-slot';
import type { AdSlot } from '../api/get-ads';
import { postAdEvent, type AdEvent } from '../api/post-ad-event';
import { attachAdMedia, browserCanPlay } from '../utils/ad-media';
import { recordImpression } from '../utils/impressions';
import { pageMacros } from '../utils/macros';
import { loadVast, VAST_ERROR, VAST_TIMEOUT_MS, type VastAnswer } from '../utils/vast';

/** The VAST client's chunk, fetched with the break's own ahead of a break that a zone may fill. */
export { loadVastClient as preloadVastClient } from '../utils/vast';
import { PauseAd } from './pause-ad';
import '../ads.css';

/** The creative must be playing this long after it was found, else it is given up (VAST error 402). */
export const MEDIA_START_TIMEOUT_MS = 5000;

/** A break of the player (AdSlots.AdBreak): a linear video ad before or after the content, or a pause ad. */
export function AdBreak(props: AdBreakProps) {
  return props.placement === 'pause' ? <PauseAd videoId={props.videoId} onDone={props.onDone} /> : <LinearAd {...props} />;
}

type Linear = Extract<VastAnswer, { kind: 'linear' }>;

/**
 * A pre-roll or post-roll: chooses the zone, resolves its VAST tag and plays the linear creative in an element of
 * its own over the player, with the time left, Skip after the zone's `skipAfter` and the click-through. Every
 * failure (no zone, no fill, a timeout, a creative that will not play) ends the break at once: the content goes on.
 */
function LinearAd({ placement, videoId, volume, muted, onDone }: AdBreakProps) {
  const slots = useAdSlots();
  const embed = slots?.embed ?? false;
  const queryClient = useQueryClient();
  const [ad, setAd] = useState<{ zone: AdSlot; vast: Linear } | null>(null);
  const onDoneRef = useRef(onDone);
  useEffect(() => {
    onDoneRef.current = onDone;
  });
  // The break ends once, whatever ends it first (the creative's end, Skip, an error, a timer).
  const ended = useRef(false);
  const finish = useCallback(() => {
    if (ended.current) return;
    ended.current = true;
    onDoneRef.current();
  }, []);
  const frameRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    const started = Date.now();
    const giveUp = () => {
      if (!cancelled) finish();
    };
    void (async () => {
      const zone = await chooseSlot(queryClient, { placement, embed, videoId }, VAST_TIMEOUT_MS, (slot) => slot.kind === 'vast' && slot.vastUrl !== null);
      if (cancelled || !zone?.vastUrl) return giveUp();
      postAdEvent(zone.id, 'request');
      const vast = await loadVast(zone.vastUrl, {
        want: 'linear',
        canPlay: browserCanPlay,
        targetWidth: (frameRef.current?.parentElement?.clientWidth ?? 640) * window.devicePixelRatio,
        macros: pageMacros(),
        timeoutMs: Math.max(0, VAST_TIMEOUT_MS - (Date.now() - started)),
      });
      if (cancelled) return;
      if (vast.kind !== 'linear') {
        postAdEvent(zone.id, 'error');
        return giveUp();
      }
      postAdEvent(zone.id, 'fill');
      setAd({ zone, vast });
    })();
    return () => {
      cancelled = true;
    };
  }, [queryClient, placement, embed, videoId, finish]);

  return (
    <div ref={frameRef} className="ad-break" role="region" aria-label="Advertisement" aria-busy={ad === null} tabIndex={-1}>
      {ad && <LinearCreative zone={ad.zone} vast={ad.vast} volume={volume} muted={muted} onEnd={finish} />}
    </div>
  );
}

interface LinearCreativeProps {
  zone: AdSlot;
  vast: Linear;
  volume: number;
  muted: boolean;
  onEnd: () => void;
}

function LinearCreative({ zone, vast, volume, muted, onEnd }: LinearCreativeProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(vast.duration);
  const [adMuted, setAdMuted] = useState(muted);
  // Where the creative starts: the content's sound as it was when the break began.
  const startSound = useRef({ volume, muted });
  const playing = useRef(false);
  // Each of our events and the tracker's is sent once (the tracker itself keeps start and the quartiles to once).
  const sent = useRef(new Set<AdEvent>());
  const once = (event: AdEvent, track: () => void) => {
    if (sent.current.has(event)) return;
    sent.current.add(event);
    track();
    postAdEvent(zone.id, event);
  };
  const fail = (code: number) => {
    once('error', () => vast.tracker.error({ ERRORCODE: code }));
    onEnd();
  };
  const failRef = useRef(fail);
  useEffect(() => {
    failRef.current = fail;
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.volume = startSound.current.volume;
    video.muted = startSound.current.muted;
    let release: (() => void) | null = null;
    let cancelled = false;
    const startTimer = setTimeout(() => {
      if (!playing.current) failRef.current(VAST_ERROR.mediaTimeout);
    }, MEDIA_START_TIMEOUT_MS);
    void attachAdMedia(video, vast.media, () => failRef.current(VAST_ERROR.mediaError)).then((detach) => {
      if (cancelled) return detach();
      release = detach;
      // A browser that refuses to play with sound (no gesture of the visitor's yet) may still play muted.
      void video.play().catch(() => {
        if (cancelled) return;
        video.muted = true;
        setAdMuted(true);
        return video.play().catch(() => failRef.current(VAST_ERROR.linear));
      });
    });
    if (document.activeElement?.closest('.player')) video.closest<HTMLElement>('.ad-break')?.focus({ preventScroll: true });
    return () => {
      cancelled = true;
      clearTimeout(startTimer);
      release?.();
    };
  }, [vast]);

  const skipAfter = zone.skipAfter;
  const left = Math.max(0, (duration > 0 ? duration : 0) - time);
  const skippable = skipAfter !== null && time >= skipAfter;

  return (
    <>
      <video
        ref={videoRef}
        className="ad-break__video"
        playsInline
        preload="auto"
        aria-hidden="true"
        onPlaying={() => {
          if (playing.current) return;
          playing.current = true;
          once('impression', () => vast.tracker.trackImpression());
          recordImpression(zone.id);
        }}
        onLoadedMetadata={(event) => {
          const end = event.currentTarget.duration;
          if (!Number.isFinite(end) || end <= 0) return;
          setDuration(end);
          // A creative whose VAST gives no usable duration: the quartiles are the file's.
          if (!(vast.duration > 0)) vast.tracker.setDuration(end);
        }}
        onTimeUpdate={(event) => {
          const now = event.currentTarget.currentTime;
          setTime(now);
          if (now > 0) vast.tracker.setProgress(now);
        }}
        onEnded={() => {
          once('complete', () => vast.tracker.complete());
          onEnd();
        }}
        onError={() => fail(VAST_ERROR.mediaError)}
      />
      {vast.clickThrough && (
        <a
          className="ad-break__click"
          href={vast.clickThrough}
          target="_blank"
          rel="noopener"
          aria-label="Visit the advertiser (opens in a new tab)"
          onClick={() => once('click', () => vast.tracker.click())}
        />
      )}
      <p className="ad-break__label">Ad · {formatDuration(Math.ceil(left))}</p>
      <div className="ad-break__actions">
        <button
          className="ad-button"
          type="button"
          onClick={() => {
            const video = videoRef.current;
            if (!video) return;
            video.muted = !video.muted;
            setAdMuted(video.muted);
          }}
        >
          {adMuted ? 'Unmute' : 'Mute'}
        </button>
        {skipAfter !== null &&
          (skippable ? (
            <button
              className="ad-button"
              type="button"
              onClick={() => {
                once('skip', () => vast.tracker.skip());
                onEnd();
              }}
            >
              Skip ad
            </button>
          ) : (
            <span className="ad-break__countdown">Skip in {Math.ceil(skipAfter - time)}</span>
          ))}
      </div>
    </>
  );
}
