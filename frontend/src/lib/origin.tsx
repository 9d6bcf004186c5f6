import { createContext, useContext } from 'react';

/**
 * The site's origin as the page was asked for: the browser's own, or on the server (entry-server.tsx) the
 * request's, so that links built from it (share, embed, JSON-LD) are the same text on both sides of hydration.
 */
export const OriginContext = createContext<string | null>(null);

export function useOrigin(): string {
  return useContext(OriginContext) ?? window.location.origin;
}
