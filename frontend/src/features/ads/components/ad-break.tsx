import { formatDuration } from '@hunktube/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useAdSlots, type AdBreakProps } from '@/lib/ad-slots';
import { chooseSlot } from '../api/choose-slot';
import { dropEarlyPrerollView, takeEarlyPreroll } from '../early-preroll';
import { playsVast } from '../utils/choose-zone';
import type { LinearPlayback } from '../utils/linear-playback';
import type { EarlyAd } from '../utils/prepare-preroll';
import { resolveLinear } from '../utils/resolve-linear';
import { VAST_TIMEOUT_MS } from '../utils/vast';

/** The VAST client's chunk, fetched with the break's own ahead of a break that a zone may fill. */
export { loadVastClient as preloadVastClient } from '../utils/vast';
import { PauseAd } from './pause-ad';
import '../ads.css';

/** A break of the player (AdSlots.AdBreak): a linear video ad before or after the content, or a pause ad. */
export function AdBreak(props: AdBreakProps) {
  return props.placement === 'pause' ? <PauseAd videoId={props.videoId} onDone={props.onDone} /> : <LinearAd {...props} />;
}

/**
 * A pre-roll or post-roll: the pre-roll the page's first script prepared (and may have started: ./early-preroll),
 * else the zone chosen now, its VAST tag resolved, and the linear creative played in an element of its own over
 * the player, with the time left, Skip after the zone's `skipAfter` and the click-through. Every failure (no zone,
 * no fill, a timeout, a creative that will not play) ends the break at once: the content goes on.
 */
function LinearAd({ placement, videoId, volume, muted, onDone }: AdBreakProps) {
  const slots = useAdSlots();
  const embed = slots?.embed ?? false;
  const queryClient = useQueryClient();
  const [playback, setPlayback] = useState<LinearPlayback | null>(null);
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
  // The content's sound as it was when the break began.
  const sound = useRef({ volume, muted });
  // Taken once (a second mount, as React's strict mode does, finds it here).
  const prepared = useRef<Promise<EarlyAd | null> | null | undefined>(undefined);

  useEffect(() => {
    let cancelled = false;
    const started = Date.now();
    const giveUp = () => {
      if (!cancelled) finish();
    };
    if (prepared.current === undefined) prepared.current = placement === 'preroll' && !embed ? takeEarlyPreroll(videoId) : null;
    const early = prepared.current;
    void (async () => {
      if (early) {
        const ad = await early;
        if (cancelled) return;
        return ad && !ad.playback.ended ? setPlayback(ad.playback) : giveUp();
      }
      const zone = await chooseSlot(queryClient, { placement, embed, videoId }, VAST_TIMEOUT_MS, playsVast);
      if (cancelled || !zone) return giveUp();
      const width = (frameRef.current?.parentElement?.clientWidth ?? 640) * window.devicePixelRatio;
      const resolved = await resolveLinear(zone, width, sound.current, Math.max(0, VAST_TIMEOUT_MS - (Date.now() - started)));
      if (cancelled) return;
      return resolved ? setPlayback(resolved) : giveUp();
    })();
    return () => {
      cancelled = true;
    };
  }, [queryClient, placement, embed, videoId, finish]);

  return (
    <div ref={frameRef} className="ad-break" role="region" aria-label="Advertisement" aria-busy={playback === null} tabIndex={-1}>
      {playback && <LinearCreative playback={playback} onEnd={finish} />}
    </div>
  );
}

function LinearCreative({ playback, onEnd }: { playback: LinearPlayback; onEnd: () => void }) {
  const holderRef = useRef<HTMLDivElement>(null);
  const { time, duration, muted } = useSyncExternalStore(playback.subscribe, playback.getSnapshot);

  useEffect(() => {
    const holder = holderRef.current;
    if (!holder) return;
    // The element moves in playing (a pre-roll the page's first script started goes on where it was).
    holder.append(playback.video);
    dropEarlyPrerollView();
    playback.onEnd(onEnd);
    playback.play();
    if (document.activeElement?.closest('.player')) holder.closest<HTMLElement>('.ad-break')?.focus({ preventScroll: true });
    return () => playback.unload();
  }, [playback, onEnd]);

  const skipAfter = playback.zone.skipAfter;
  const left = Math.max(0, (duration > 0 ? duration : 0) - time);
  const skippable = skipAfter !== null && time >= skipAfter;
  const clickThrough = playback.vast.clickThrough;

  return (
    <>
      <div ref={holderRef} className="ad-break__media" />
      {clickThrough && (
        <a
          className="ad-break__click"
          href={clickThrough}
          target="_blank"
          rel="noopener"
          aria-label="Visit the advertiser (opens in a new tab)"
          onClick={() => playback.clicked()}
        />
      )}
      <p className="ad-break__label">Ad · {formatDuration(Math.ceil(left))}</p>
      <div className="ad-break__actions">
        <button className="ad-button" type="button" onClick={() => playback.toggleMute()}>
          {muted ? 'Unmute' : 'Mute'}
        </button>
        {skipAfter !== null &&
          (skippable ? (
            <button className="ad-button" type="button" onClick={() => playback.skip()}>
              Skip ad
            </button>
          ) : (
            <span className="ad-break__countdown">Skip in {Math.ceil(skipAfter - time)}</span>
          ))}
      </div>
    </>
  );
}
