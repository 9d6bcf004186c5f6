import { formatDuration } from '@hunktube/shared';
import { readPlayerPrefs } from '@/lib/player-prefs';
import type { AdSlot } from '../api/types';
import type { MacroValues } from './macros';
import { resolveLinear } from './resolve-linear';
import { VAST_TIMEOUT_MS, type PrefetchedTag } from './vast';
import type { LinearPlayback } from './linear-playback';
import '../ads.css';
// Fetched with this module rather than after it: the tag is resolved as soon as this runs.
import '@dailymotion/vast-client';

/** A pre-roll made ready before the app (../early-preroll.ts): its playback, and a view of it for the player's slot. */
export interface EarlyAd {
  playback: LinearPlayback;
  /**
   * Shows the ad in `slot` (the player's, in the server's markup) and plays it, with the label and the time left;
   * resolves once its first frame is there (or it has ended).
   */
  show(slot: Element): Promise<void>;
  hide(): void;
}

/**
 * Resolves the chosen VAST zone's tag (its first answer already asked for: ../early-preroll.ts) and loads its
 * creative, at the sound the player will have (this device's last choice). Null when there is no ad to play.
 */
export async function preparePreroll(zone: AdSlot, targetWidth: number, early: { prefetched: PrefetchedTag; macros: MacroValues }): Promise<EarlyAd | null> {
  const { volume, muted } = readPlayerPrefs();
  const playback = await resolveLinear(zone, targetWidth, { volume, muted }, VAST_TIMEOUT_MS, early);
  if (!playback) return null;
  playback.load();
  let view: HTMLElement | null = null;
  let unsubscribe = () => {};
  const hide = () => {
    unsubscribe();
    view?.remove();
    view = null;
  };
  return {
    playback,
    hide,
    show(slot) {
      if (view || playback.ended) return Promise.resolve();
      view = document.createElement('div');
      view.className = 'ad-break';
      view.setAttribute('role', 'region');
      view.setAttribute('aria-label', 'Advertisement');
      const label = document.createElement('p');
      label.className = 'ad-break__label';
      const draw = () => {
        const { time, duration } = playback.getSnapshot();
        label.textContent = `Ad · ${formatDuration(Math.ceil(Math.max(0, (duration > 0 ? duration : 0) - time)))}`;
      };
      draw();
      unsubscribe = playback.subscribe(draw);
      view.append(playback.video, label);
      slot.append(view);
      playback.onEnd(hide);
      playback.play();
      return playback.firstFrame;
    },
  };
}
