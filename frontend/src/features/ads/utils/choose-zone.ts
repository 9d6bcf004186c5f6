import type { AdSlot } from '../api/types';
import { readImpressions, type Impressions } from './impressions';

const HOUR_MS = 3_600_000;

/** A zone that can fill a player's linear break: a VAST zone with its tag. */
export const playsVast = (zone: Pick<AdSlot, 'kind' | 'vastUrl'>): boolean => zone.kind === 'vast' && zone.vastUrl !== null;

/** Whether this viewer has seen the zone `frequencyCap.count` times in its last `frequencyCap.hours` already. */
export function isCapped(zone: Pick<AdSlot, 'id' | 'frequencyCap'>, impressions: Impressions, now: number): boolean {
  const cap = zone.frequencyCap;
  if (!cap) return false;
  const since = now - cap.hours * HOUR_MS;
  return (impressions[zone.id] ?? []).filter((at) => at > since).length >= cap.count;
}

/**
 * The zone that fills a slot among those the server answered: the ones under their cap, each with the chance of
 * its weight over their sum (`random` in [0, 1)); null when none is left.
 */
export function chooseZone<Z extends Pick<AdSlot, 'id' | 'frequencyCap' | 'weight'>>(
  zones: readonly Z[],
  impressions: Impressions,
  now: number,
  random: () => number = Math.random,
): Z | null {
  const open = zones.filter((zone) => !isCapped(zone, impressions, now));
  const total = open.reduce((sum, zone) => sum + Math.max(0, zone.weight), 0);
  if (open.length === 0 || total <= 0) return null;
  let point = random() * total;
  for (const zone of open) {
    point -= Math.max(0, zone.weight);
    if (point < 0) return zone;
  }
  return open[open.length - 1];
}

/** Whether any of the zones is under its cap for this browser now (its impressions as stored). */
export const anyZoneOpen = (zones: readonly Pick<AdSlot, 'id' | 'frequencyCap'>[]): boolean => {
  const impressions = readImpressions();
  const now = Date.now();
  return zones.some((zone) => !isCapped(zone, impressions, now));
};
