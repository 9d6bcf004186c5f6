/*
 * Continue watching (issue #16, docs/decisions.md › "Continue watching"): where a video stopped, kept so that the home page
 * can offer to pick it up again. The API and the player apply the same rules.
 */

/** A position this close to the end (seconds) is a finished video: nothing to resume, it leaves the row. */
export const RESUME_END_MARGIN_SECONDS = 5;

/** The longest position accepted (seconds): a day, past any video's length. */
export const MAX_RESUME_POSITION_SECONDS = 86_400;

/** How many videos the Continue watching row holds, and the guest's browser remembers. */
export const CONTINUE_WATCHING_LIMIT = 24;

/**
 * The position worth keeping, in whole seconds, or null: not started (under a second) or finished (within the
 * margin of a known duration).
 */
export function resumablePosition(seconds: number, duration: number | null): number | null {
  if (!Number.isFinite(seconds) || seconds < 1) return null;
  if (duration !== null && Number.isFinite(duration) && duration > 0 && seconds >= duration - RESUME_END_MARGIN_SECONDS) return null;
  return Math.floor(seconds);
}
