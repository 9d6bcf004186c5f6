/**
 * Sent on the document once the app has hydrated a server-rendered page: the page's first script (src/early.ts)
 * then stops holding clicks and clicks again what the visitor clicked before. The layout sends it for every
 * page but the watch page, whose content hydrates after the rest of the page and which sends it itself.
 */
export const APP_HYDRATED_EVENT = 'hunktube:hydrated';

export function announceHydrated(): void {
  document.dispatchEvent(new Event(APP_HYDRATED_EVENT));
}
