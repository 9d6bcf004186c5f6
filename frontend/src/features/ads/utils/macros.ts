/** What the page tells an ad server through a tag's macros. */
export interface MacroValues {
  now: number;
  pageUrl: string;
  /** A random integer that keeps caches from answering the tag (CACHEBUSTING). */
  random: number;
}

/**
 * The macros the player fills in a VAST tag URL (the zone's own and each wrapper's VASTAdTagURI), as VAST 4.1
 * § 6.1 asks: the values URL-encoded, CACHEBUSTING eight digits. The VASTTracker fills the tracking URLs itself.
 */
export function fillTagMacros(url: string, { now, pageUrl, random }: MacroValues): string {
  const values: Record<string, string> = {
    CACHEBUSTING: String(Math.abs(Math.trunc(random)) % 1e8).padStart(8, '0'),
    TIMESTAMP: new Date(now).toISOString(),
    PAGEURL: pageUrl,
    DOMAIN: new URL(pageUrl).hostname,
  };
  return url.replace(/\[(CACHEBUSTING|TIMESTAMP|PAGEURL|DOMAIN)\]/g, (_match, name: string) => encodeURIComponent(values[name]));
}

/** The values for this page, now. */
export const pageMacros = (): MacroValues => ({ now: Date.now(), pageUrl: window.location.href, random: Math.random() * 1e8 });
