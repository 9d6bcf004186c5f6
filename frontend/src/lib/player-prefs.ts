import { readStorage, writeStorage } from './storage';

/** Playback speeds the player offers. */
export const PLAYBACK_SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/**
 * What this device last chose in the player, kept for the next video: volume (0–1), muted, speed (one of
 * PLAYBACK_SPEEDS), quality (a rendition's label, like 720p; null for Auto), theater mode and captions (the
 * language shown, null for off). What is missing or not a valid value reads as the default.
 */
export interface PlayerPrefs {
  volume: number;
  muted: boolean;
  speed: number;
  quality: string | null;
  theater: boolean;
  captions: string | null;
}

const PLAYER_PREFS_KEY = 'player_prefs';
export const DEFAULT_PLAYER_PREFS: PlayerPrefs = { volume: 1, muted: false, speed: 1, quality: null, theater: false, captions: null };

export function readPlayerPrefs(): PlayerPrefs {
  let stored: Partial<Record<keyof PlayerPrefs, unknown>> = {};
  try {
    const parsed: unknown = JSON.parse(readStorage('local', PLAYER_PREFS_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') stored = parsed;
  } catch {
    // not JSON: the defaults
  }
  const { volume, muted, speed, quality, theater, captions } = stored;
  return {
    volume: typeof volume === 'number' && volume >= 0 && volume <= 1 ? volume : DEFAULT_PLAYER_PREFS.volume,
    muted: typeof muted === 'boolean' ? muted : DEFAULT_PLAYER_PREFS.muted,
    speed: PLAYBACK_SPEEDS.includes(speed as (typeof PLAYBACK_SPEEDS)[number]) ? (speed as number) : DEFAULT_PLAYER_PREFS.speed,
    quality: typeof quality === 'string' && /^\d{3,4}p$/.test(quality) ? quality : null,
    theater: typeof theater === 'boolean' ? theater : DEFAULT_PLAYER_PREFS.theater,
    captions: typeof captions === 'string' && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(captions) ? captions : null,
  };
}

export function writePlayerPrefs(change: Partial<PlayerPrefs>): void {
  writeStorage('local', PLAYER_PREFS_KEY, JSON.stringify({ ...readPlayerPrefs(), ...change }));
}
