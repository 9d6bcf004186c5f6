import { createHash } from 'node:crypto';
import { AD_KINDS_OF, type AdKind, type AdPlacement, type Brand } from '@hunktube/shared';

export const AD_EVENTS = ['request', 'fill', 'impression', 'complete', 'skip', 'click', 'error'] as const;
export type AdEvent = (typeof AD_EVENTS)[number];

/** A zone as the service keeps it (the row, read once per change). */
export interface AdZone {
  id: number;
  name: string;
  placement: AdPlacement;
  kind: AdKind;
  vastUrl: string | null;
  html: string | null;
  hosts: string[];
  brands: Brand[];
  members: boolean;
  embeds: boolean;
  skipAfter: number | null;
  frequencyCap: { count: number; hours: number } | null;
  weight: number;
  active: boolean;
}

/** Who asks for a slot: the request's brand, whether a member is signed in, whether the player is embedded. */
export interface AdViewer {
  brand: Brand;
  member: boolean;
  embed: boolean;
}

/**
 * The zones that may fill a slot for this viewer (docs/ads.md › "Rules"): active, of this placement, on this
 * brand, and for members or embeds only where the zone says so.
 */
export const zonesFor = (zones: readonly AdZone[], placement: AdPlacement, viewer: AdViewer): AdZone[] =>
  zones.filter(
    (zone) =>
      zone.active &&
      zone.placement === placement &&
      zone.brands.includes(viewer.brand) &&
      (!viewer.member || zone.members) &&
      (!viewer.embed || zone.embeds),
  );

/** What is wrong with a zone as a whole (the fields each passed their own rule), or null. */
export function zoneProblem(zone: Omit<AdZone, 'id'>): string | null {
  if (!AD_KINDS_OF[zone.placement].includes(zone.kind)) {
    return `kind must be ${AD_KINDS_OF[zone.placement].join(' or ')} for placement ${zone.placement}`;
  }
  if (zone.kind === 'vast' && !zone.vastUrl) return 'vastUrl is required for a vast zone';
  if (zone.vastUrl !== null && !URL.canParse(zone.vastUrl)) return 'vastUrl must be an http or https URL';
  if (zone.kind === 'html' && !zone.html) return 'html is required for an html zone';
  if (zone.kind === 'vast' && zone.html !== null) return 'html is only for html zones';
  if (zone.kind === 'html' && zone.vastUrl !== null) return 'vastUrl is only for vast zones';
  if (zone.kind === 'html' && zone.skipAfter !== null) return 'skipAfter is only for vast zones';
  return null;
}

/** What the pages' Content-Security-Policy must let in for the active zones (docs/ads.md › "CSP"). */
export interface AdSources {
  /** Origins (`https://ads.example`): the VAST tags', the ones a snippet names, and each zone's `hosts`. */
  origins: string[];
  /** `'sha256-…'` of each inline <script> of a snippet: a banner's frame has the page's policy. */
  scriptHashes: string[];
  /** The same for each inline <style>. */
  styleHashes: string[];
}

const ORIGIN_IN_TEXT = /\bhttps?:\/\/[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?/gi;
const INLINE_BLOCK = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The origins and inline scripts of the active zones, sorted and each once: equal zones, equal policy. */
export function adSources(zones: readonly AdZone[]): AdSources {
  const origins = new Set<string>();
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const zone of zones) {
    if (!zone.active) continue;
    for (const host of zone.hosts) origins.add(host);
    if (zone.vastUrl) origins.add(new URL(zone.vastUrl).origin);
    if (zone.html) {
      for (const match of zone.html.matchAll(ORIGIN_IN_TEXT)) origins.add(match[0].toLowerCase());
      for (const [, element, attributes, body] of zone.html.matchAll(INLINE_BLOCK)) {
        if (body.length === 0 || (element.toLowerCase() === 'script' && /\bsrc\s*=/i.test(attributes))) continue;
        (element.toLowerCase() === 'script' ? scripts : styles).add(hashOf(body));
      }
    }
  }
  return { origins: [...origins].sort(), scriptHashes: [...scripts].sort(), styleHashes: [...styles].sort() };
}
