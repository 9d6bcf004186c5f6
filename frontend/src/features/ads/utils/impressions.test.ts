import { describe, expect, it } from 'vitest';
import { AD_IMPRESSIONS_KEY, pruneImpressions, readImpressions, recordImpression } from './impressions';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('the impressions kept in this browser for the caps', () => {
  it('records each impression by zone, in localStorage', () => {
    recordImpression(4, NOW - 2000);
    recordImpression(4, NOW - 1000);
    recordImpression(9, NOW);
    expect(readImpressions(NOW)).toEqual({ 4: [NOW - 2000, NOW - 1000], 9: [NOW] });
    expect(JSON.parse(localStorage.getItem(AD_IMPRESSIONS_KEY) ?? '')).toEqual({ 4: [NOW - 2000, NOW - 1000], 9: [NOW] });
  });

  it('drops what no cap counts: past 720 hours, in the future, beyond the last 100, and zones left empty', () => {
    const many = Array.from({ length: 120 }, (_, i) => NOW - 120 + i);
    expect(pruneImpressions({ 1: [NOW - 721 * HOUR, NOW - 719 * HOUR, NOW + 5000], 2: [NOW - 800 * HOUR], 3: many }, NOW)).toEqual({
      1: [NOW - 719 * HOUR],
      3: many.slice(-100),
    });
    recordImpression(1, NOW - 800 * HOUR);
    recordImpression(2, NOW);
    expect(readImpressions(NOW)).toEqual({ 2: [NOW] });
  });

  it('reads an unreadable record as none', () => {
    for (const stored of ['not json', 'null', '42', '{"1": "x", "2": [1, "y"]}']) {
      localStorage.setItem(AD_IMPRESSIONS_KEY, stored);
      expect(readImpressions(NOW)).toEqual({});
    }
  });
});
