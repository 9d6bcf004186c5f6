import { readStorage, writeStorage } from '@/lib/storage';

/** When this browser was shown each zone: epoch milliseconds by zone id. */
export type Impressions = Record<number, number[]>;

/** localStorage key of the impressions kept for the frequency caps (guests' only record; members' is the server's). */
export const AD_IMPRESSIONS_KEY = 'ad_impressions';

/** The longest cap a zone can have (720 hours) and its largest count (100): nothing older or more counts. */
const KEEP_MS = 720 * 3_600_000;
const KEEP_COUNT = 100;

/** The record without what no cap can count any more: times past 720 hours (or in the future), beyond the last 100. */
export function pruneImpressions(impressions: Impressions, now: number): Impressions {
  const kept: Impressions = {};
  for (const [id, times] of Object.entries(impressions)) {
    if (!Array.isArray(times)) continue;
    const recent = times.filter((at) => typeof at === 'number' && at > now - KEEP_MS && at <= now).slice(-KEEP_COUNT);
    if (recent.length > 0) kept[Number(id)] = recent;
  }
  return kept;
}

/** This browser's record, pruned (an unreadable one is none). */
export function readImpressions(now: number = Date.now()): Impressions {
  try {
    const parsed: unknown = JSON.parse(readStorage('local', AD_IMPRESSIONS_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? pruneImpressions(parsed as Impressions, now) : {};
  } catch {
    return {};
  }
}

/** Adds an impression of the zone now, pruning the rest. */
export function recordImpression(zoneId: number, now: number = Date.now()): void {
  const impressions = readImpressions(now);
  impressions[zoneId] = [...(impressions[zoneId] ?? []), now].slice(-KEEP_COUNT);
  writeStorage('local', AD_IMPRESSIONS_KEY, JSON.stringify(impressions));
}
