import { useSyncExternalStore } from 'react';

const noChanges = () => () => {};

/**
 * A value only the browser knows (what its storage holds): `fallback` where the page is rendered on the server
 * and while the browser hydrates that HTML, so that both draw the same thing, then the browser's own value
 * (React renders again at once). `read` must give the same value for the same storage (a boolean, a number).
 */
export function useBrowserValue<T>(read: () => T, fallback: T): T {
  return useSyncExternalStore(noChanges, read, () => fallback);
}
