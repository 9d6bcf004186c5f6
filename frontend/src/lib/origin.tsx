import { createContext, useContext } from 'react';
import { useSite } from './site';

/**
 * The site's public origin, as configured (PUBLIC_URL, or the brand host's own; docs/security.md › "Origins"): on
 * the server (entry-server.tsx) the one the API rendered the page for, in the browser the one the site's settings
 * name, so that links built from it (share, embed, JSON-LD) are the same text on both sides of hydration and
 * never the address a visitor happened to type. The browser's own origin only until the settings are known.
 */
export const OriginContext = createContext<string | null>(null);

export function useOrigin(): string {
  const rendering = useContext(OriginContext);
  const site = useSite();
  return rendering ?? site.data?.origin ?? window.location.origin;
}
