// Browser storage can be missing or full (private modes, quotas): every access may fail, and then the app behaves
// as if nothing were stored.

type Area = 'local' | 'session';

const area = (kind: Area): Storage => (kind === 'local' ? window.localStorage : window.sessionStorage);

export function readStorage(kind: Area, key: string): string | null {
  try {
    return area(kind).getItem(key);
  } catch {
    return null;
  }
}

/** Stores a value, or removes the key for null. */
export function writeStorage(kind: Area, key: string, value: string | null): void {
  try {
    if (value === null) area(kind).removeItem(key);
    else area(kind).setItem(key, value);
  } catch {
    // Not stored: the page keeps working without it.
  }
}

/** The slug of the last video watched, kept for the tab's session so a listing can scroll back to its card. */
export const SCROLL_TARGET_KEY = 'scroll_target';

/** Set to 'true' once the visitor has confirmed being an adult at the 18+ gate; kept on this device. */
export const AGE_CONFIRMED_KEY = 'age_confirmed';

/** A like given on this device is remembered per video as liked_{id} = 'true' (the specification's key). */
export const likedKey = (videoId: number) => `liked_${videoId}`;
