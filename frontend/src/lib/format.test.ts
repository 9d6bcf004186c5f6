import { describe, expect, it } from 'vitest';
import { formatCompactNumber, formatNumber, formatUploadAge } from './format';

describe('formatUploadAge', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;

  it.each([
    [30_000, 'just now'],
    [minute, '1 minute ago'],
    [5 * minute, '5 minutes ago'],
    [hour, '1 hour ago'],
    [23 * hour, '23 hours ago'],
    [day, '1 day ago'],
    [3 * day, '3 days ago'],
    [7 * day, '1 week ago'],
    [20 * day, '2 weeks ago'],
    [45 * day, '1 month ago'],
    [200 * day, '6 months ago'],
    [365 * day, '1 year ago'],
    [3 * 365 * day, '3 years ago'],
  ])('reads %i ms ago as "%s"', (ms, expected) => {
    expect(formatUploadAge(ago(ms), { now })).toBe(expected);
  });

  it('reads a date in the future as just now', () => {
    expect(formatUploadAge(ago(-2 * hour), { now })).toBe('just now');
  });

  it('returns an empty string for an unreadable date', () => {
    expect(formatUploadAge('not a date', { now })).toBe('');
    expect(formatUploadAge('not a date', { now, utcOffsetHours: 10.5 })).toBe('');
  });

  it('reads a date written without an offset at the given UTC offset, as the watch page calls it (10.5)', () => {
    // 21:00 at UTC+10:30 is 10:30 UTC: an hour and a half before `now`.
    expect(formatUploadAge('2026-11-21 21:00:00', { now, utcOffsetHours: 10.5 })).toBe('1 hour ago');
    expect(formatUploadAge('2026-11-21T21:00:00', { now, utcOffsetHours: 10.5 })).toBe('1 hour ago');
    // Without the offset the same text is 9 hours ahead of now.
    expect(formatUploadAge('2026-11-21T21:00:00', { now })).toBe('just now');
    expect(formatUploadAge('2026-11-18', { now, utcOffsetHours: 10.5 })).toBe('3 days ago');
  });

  it('reads a date that carries its own offset as written, whatever offset is given', () => {
    expect(formatUploadAge('2026-11-21T10:00:00.000Z', { now, utcOffsetHours: 10.5 })).toBe('2 hours ago');
    expect(formatUploadAge('2026-11-21T11:00:00+01:00', { now, utcOffsetHours: 10.5 })).toBe('2 hours ago');
  });
});

describe('formatNumber', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1235, '1,235'],
    [3_400_000, '3,400,000'],
  ])('formats %i as %s', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });
});

describe('formatCompactNumber', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1234, '1.2K'],
    [15_000, '15K'],
    [3_400_000, '3.4M'],
  ])('formats %i as %s', (value, expected) => {
    expect(formatCompactNumber(value)).toBe(expected);
  });
});
