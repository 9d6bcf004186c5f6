import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatCompactNumber, formatNumber, formatUploadAge } from './format';

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

// The formatters are written by hand (lib/format.ts says why); Node's ICU is the reference they must match.
describe('the hand-written formatters give Intl’s answers', () => {
  const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
  const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  const edges = [0, 1, 9, 49, 50, 99, 949, 950, 999, 1000, 1049, 1050, 1149, 1150, 1151, 1249, 1250, 9949, 9950, 9999,
    99_949, 99_950, 999_949, 999_950, 999_999, 1_000_000, 1_050_000, 1_149_999, 1_150_000, 999_950_000, 1e9, 1_250_000_000,
    999_950_000_000, 1e12, 1_234_567_890_123, 9.99e14, 1e15, 2 ** 53, 2 ** 60, 1e21, 1.2345e25];

  it('formats counts, edges of each unit and their negatives, as Intl.NumberFormat does', () => {
    for (const value of edges.flatMap((v) => [v, -v])) {
      expect([value, formatCompactNumber(value)]).toEqual([value, compact.format(value)]);
      expect([value, formatNumber(value)]).toEqual([value, whole.format(value)]);
    }
  });

  it('formats 20,000 counts at every scale as Intl.NumberFormat does', () => {
    let seed = 31;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const value = Math.floor(next() * 10 ** Math.floor(next() * 16));
      expect([value, formatCompactNumber(value)]).toEqual([value, compact.format(value)]);
      expect([value, formatNumber(value)]).toEqual([value, whole.format(value)]);
    }
  });

  it('rounds fractions to whole numbers as Intl.NumberFormat does', () => {
    for (const value of [0.4, 0.5, 0.49999999999999994, 1.5, 2.5, 1234.5, 999.5, -0.5, -1234.5]) {
      expect([value, formatNumber(value)]).toEqual([value, whole.format(value)]);
    }
  });

  it('writes ages as Intl.RelativeTimeFormat does', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const units: [Intl.RelativeTimeFormatUnit, number][] = [['minute', 60_000], ['hour', 3_600_000], ['day', 86_400_000],
      ['week', 7 * 86_400_000], ['month', 30 * 86_400_000], ['year', 365 * 86_400_000]];
    const limits: Record<string, number> = { minute: 59, hour: 23, day: 6, week: 4, month: 12, year: 40 };
    for (const [unit, ms] of units) {
      for (let count = 1; count <= limits[unit]; count++) {
        if (unit === 'month' && count === 12) continue; // 360 days is still "12 months ago"; 365 is a year
        const iso = new Date(now.getTime() - count * ms).toISOString();
        expect([iso, formatUploadAge(iso, { now })]).toEqual([iso, relative.format(-count, unit)]);
      }
    }
  });
});

describe('formatCalendarDate', () => {
  it('names the day as written, with or without a time or an offset', () => {
    expect(formatCalendarDate('2024-06-01 12:00:00')).toBe('Jun 1, 2024');
    expect(formatCalendarDate('2024-06-01T23:30:00+10:00')).toBe('Jun 1, 2024');
    expect(formatCalendarDate('2025-11-30')).toBe('Nov 30, 2025');
  });

  it('gives Intl’s medium date for every day of two years', () => {
    const medium = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
    for (let time = Date.UTC(2023, 0, 1); time < Date.UTC(2025, 0, 1); time += 86_400_000) {
      const iso = new Date(time).toISOString();
      expect([iso, formatCalendarDate(iso)]).toEqual([iso, medium.format(time)]);
    }
  });

  it('returns an empty string for an unreadable date', () => {
    expect(formatCalendarDate('not a date')).toBe('');
    expect(formatCalendarDate('2024-13-01')).toBe('');
  });
});
