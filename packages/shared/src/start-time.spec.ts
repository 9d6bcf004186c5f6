import { describe, expect, it } from 'vitest';
import { parseStartTime } from './start-time.js';

describe('parseStartTime', () => {
  it.each([
    ['90', 90],
    ['90s', 90],
    ['12.5', 12.5],
    ['1m30s', 90],
    ['1h2m3s', 3723],
    ['2m', 120],
    ['0', 0],
  ])('reads t=%s as %d seconds', (value, seconds) => {
    expect(parseStartTime(value)).toBe(seconds);
  });

  it.each([null, undefined, '', 'abc', '-5', '1:30', '1m30', 'h'])('ignores %j', (value) => {
    expect(parseStartTime(value)).toBeNull();
  });
});
