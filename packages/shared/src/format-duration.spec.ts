import { describe, expect, it } from 'vitest';
import { formatDuration, isoDuration } from './format-duration.js';

describe('formatDuration', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [59, '0:59'],
    [60, '1:00'],
    [754, '12:34'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [3725, '1:02:05'],
    [36000, '10:00:00'],
  ])('formats %i seconds as %s', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });

  it('drops fractions of a second instead of rounding up', () => {
    expect(formatDuration(59.9)).toBe('0:59');
  });

  it.each([null, undefined, Number.NaN, -1, Number.POSITIVE_INFINITY])(
    'shows --:-- for an unknown duration (%s)',
    (value) => {
      expect(formatDuration(value)).toBe('--:--');
    },
  );
});

describe('isoDuration', () => {
  it.each([
    [0, 'PT0S'],
    [5, 'PT5S'],
    [60, 'PT1M'],
    [725, 'PT12M5S'],
    [3600, 'PT1H'],
    [3725, 'PT1H2M5S'],
    [59.9, 'PT59S'],
  ])('writes %s seconds as %s', (seconds, expected) => {
    expect(isoDuration(seconds)).toBe(expected);
  });
});
