import { useSyncExternalStore } from 'react';

const loaded = () => document.readyState === 'complete';
const subscribe = (changed: () => void) => {
  window.addEventListener('load', changed);
  return () => window.removeEventListener('load', changed);
};

/**
 * False until the page has shown its first picture (the window's load event: the first screen's images; on a
 * server-rendered watch page the app itself waited for the stream's first frame, src/early.ts), true at once
 * after a navigation inside the app. False on the server and while hydrating, so ads draw nothing there.
 */
export const useAfterFirstPicture = (): boolean => useSyncExternalStore(subscribe, loaded, () => false);
