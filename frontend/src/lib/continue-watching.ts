import { CONTINUE_WATCHING_LIMIT } from '@hunktube/shared';
import { readResumePosition, resumeKey } from './resume-position';
import { readStorage, writeStorage } from './storage';

/*
 * A guest's Continue watching, kept by this browser (docs/decisions.md › "Continue watching"): the videos started here,
 * most recent first, in `continue_watching`; where each stopped in `resume_{id}`, the player's own key. A
 * member's row comes from the API instead, and nothing a member watches is written here: signing out leaves no
 * row behind for the next person at this browser.
 */

export const CONTINUE_WATCHING_KEY = 'continue_watching';

export const writeResumePosition = (videoId: number, seconds: number | null) =>
  writeStorage('local', resumeKey(videoId), seconds === null ? null : String(Math.floor(seconds)));

interface Entry {
  id: number;
  /** When it was last watched (ms since the epoch). */
  at: number;
}

/** The stored index as written; the raw string is what a component compares (useBrowserValue). */
export const readContinueIndex = (): string | null => readStorage('local', CONTINUE_WATCHING_KEY);

/** The entries of an index, tolerating anything a browser may hold under the key. */
export function parseContinueIndex(raw: string | null): Entry[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<number>();
  return value
    .filter((entry): entry is Entry => {
      const ok =
        typeof entry === 'object' && entry !== null && Number.isInteger(entry.id) && entry.id > 0 && Number.isFinite(entry.at) && !seen.has(entry.id);
      if (ok) seen.add(entry.id);
      return ok;
    })
    .slice(0, CONTINUE_WATCHING_LIMIT);
}

const writeIndex = (entries: Entry[]) =>
  writeStorage('local', CONTINUE_WATCHING_KEY, entries.length === 0 ? null : JSON.stringify(entries.slice(0, CONTINUE_WATCHING_LIMIT)));

/** A guest watched a video up to `position` (null: finished): it leads the row, or leaves it. */
export function rememberGuestProgress(videoId: number, position: number | null, now = Date.now()): void {
  const rest = parseContinueIndex(readContinueIndex()).filter((entry) => entry.id !== videoId);
  writeIndex(position === null ? rest : [{ id: videoId, at: now }, ...rest]);
}

/** Takes videos out of the guest's row (removed by the guest, or gone from the catalogue). */
export function forgetGuestProgress(videoIds: readonly number[]): void {
  const drop = new Set(videoIds);
  const entries = parseContinueIndex(readContinueIndex());
  if (entries.some((entry) => drop.has(entry.id))) writeIndex(entries.filter((entry) => !drop.has(entry.id)));
}

/** The guest's row: ids with their positions, most recent first; entries with no position left are skipped. */
export function guestContinueEntries(raw: string | null): { id: number; position: number }[] {
  return parseContinueIndex(raw).flatMap((entry) => {
    const position = readResumePosition(entry.id);
    return position === null ? [] : [{ id: entry.id, position }];
  });
}
