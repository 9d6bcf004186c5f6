import type { AdSlot } from '../api/types';
import { postAdEvent } from '../api/post-ad-event';
import { browserCanPlay } from './ad-media';
import { LinearPlayback } from './linear-playback';
import { pageMacros, type MacroValues } from './macros';
import { loadVast, VAST_TIMEOUT_MS, type PrefetchedTag } from './vast';

/**
 * A VAST zone's linear ad, ready to play: its tag resolved (within `timeoutMs`, wrappers included), counted as a
 * request, then a fill or an error. Null when there is none to play.
 */
export async function resolveLinear(
  zone: AdSlot,
  targetWidth: number,
  sound: { volume: number; muted: boolean },
  timeoutMs = VAST_TIMEOUT_MS,
  /** The tag's first answer, already asked for, with the macros it was filled with. */
  early?: { prefetched: PrefetchedTag; macros: MacroValues },
): Promise<LinearPlayback | null> {
  if (!zone.vastUrl) return null;
  postAdEvent(zone.id, 'request');
  const macros = early?.macros ?? pageMacros();
  const vast = await loadVast(zone.vastUrl, { want: 'linear', canPlay: browserCanPlay, targetWidth, macros, timeoutMs, prefetched: early?.prefetched });
  if (vast.kind !== 'linear') {
    postAdEvent(zone.id, 'error');
    return null;
  }
  postAdEvent(zone.id, 'fill');
  return new LinearPlayback(zone, vast, sound);
}
