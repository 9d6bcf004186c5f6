import { parseRange } from './media-serving';

describe('parseRange (objects streamed from a bucket)', () => {
  it.each([
    ['bytes=0-99', 1000, { start: 0, end: 99 }],
    ['bytes=990-2000', 1000, { start: 990, end: 999 }],
    ['bytes=500-', 1000, { start: 500, end: 999 }],
    ['bytes=-100', 1000, { start: 900, end: 999 }],
    ['bytes=-5000', 1000, { start: 0, end: 999 }],
    [' bytes=1-1 ', 1000, { start: 1, end: 1 }],
  ] as const)('reads %j of %d bytes as one range', (header, size, range) => {
    expect(parseRange(header, size)).toEqual(range);
  });

  it.each([
    [undefined, 1000],
    ['bytes=-', 1000],
    ['bytes=5-2', 1000],
    ['bytes=0-1,5-6', 1000],
    ['items=0-1', 1000],
    ['bytes=a-b', 1000],
  ] as const)('answers %j whole, as Express does', (header, size) => {
    expect(parseRange(header, size)).toBeNull();
  });

  it.each([
    ['bytes=1000-', 1000],
    ['bytes=1000-1001', 1000],
    ['bytes=-0', 1000],
    ['bytes=0-', 0],
  ] as const)('refuses %j of %d bytes (416)', (header, size) => {
    expect(parseRange(header, size)).toBe('unsatisfiable');
  });
});
