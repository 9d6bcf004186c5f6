import { describe, expect, it } from 'vitest';
import { chooseZone, isCapped } from './choose-zone';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-21T12:00:00Z');

const zone = (id: number, weight = 1, frequencyCap: { count: number; hours: number } | null = null) => ({ id, weight, frequencyCap });

describe('the frequency cap', () => {
  it('counts the impressions within the last `hours` only, up to `count`', () => {
    const capped = zone(1, 1, { count: 2, hours: 24 });
    expect(isCapped(capped, {}, NOW)).toBe(false);
    expect(isCapped(capped, { 1: [NOW - HOUR] }, NOW)).toBe(false);
    expect(isCapped(capped, { 1: [NOW - 2 * HOUR, NOW - HOUR] }, NOW)).toBe(true);
    // One of the two is older than the window: one left.
    expect(isCapped(capped, { 1: [NOW - 25 * HOUR, NOW - HOUR] }, NOW)).toBe(false);
    // Another zone's impressions are not this one's.
    expect(isCapped(capped, { 2: [NOW - 2 * HOUR, NOW - HOUR] }, NOW)).toBe(false);
  });

  it('never caps a zone without one', () => {
    expect(isCapped(zone(1), { 1: Array.from({ length: 50 }, (_, i) => NOW - i) }, NOW)).toBe(false);
  });
});

describe('choosing the zone of a slot', () => {
  it('gives each zone the share of its weight', () => {
    const zones = [zone(1, 1), zone(2, 3)];
    // The sum is 4: [0, 1) is the first zone's, [1, 4) the second's.
    expect(chooseZone(zones, {}, NOW, () => 0)?.id).toBe(1);
    expect(chooseZone(zones, {}, NOW, () => 0.24)?.id).toBe(1);
    expect(chooseZone(zones, {}, NOW, () => 0.25)?.id).toBe(2);
    expect(chooseZone(zones, {}, NOW, () => 0.999)?.id).toBe(2);

    const counts = { 1: 0, 2: 0 };
    for (let i = 0; i < 4000; i += 1) counts[chooseZone(zones, {}, NOW)?.id as 1 | 2] += 1;
    expect(counts[2] / 4000).toBeGreaterThan(0.7);
    expect(counts[2] / 4000).toBeLessThan(0.8);
  });

  it('skips the zones over their cap, and answers none when every zone is', () => {
    const zones = [zone(1, 99, { count: 1, hours: 1 }), zone(2, 1)];
    const seen = { 1: [NOW - 1000] };
    expect(chooseZone(zones, seen, NOW, () => 0)?.id).toBe(2);
    expect(chooseZone([zones[0]], seen, NOW, () => 0)).toBeNull();
    expect(chooseZone([], {}, NOW)).toBeNull();
  });
});
