import { describe, expect, it } from 'vitest';
import { EXCLUDE_MAX, formatExclude, listingFilterParams, parseExclude, parseListingFilters } from './listing-filters.js';

/** The first value of each parameter of a query string, as URLSearchParams.get answers (this package has no DOM or Node types). */
const read = (search: string) => {
  const pairs = search.split('&').filter(Boolean).map((pair) => pair.split('=') as [string, string]);
  return parseListingFilters((name) => pairs.find(([key]) => key === name)?.[1] ?? null);
};

describe('listing filters', () => {
  it('reads every filter of an address', () => {
    expect(read('minDuration=600&maxDuration=1199&quality=hd&uploaded=week')).toEqual({ minDuration: 600, maxDuration: 1199, quality: 'hd', uploaded: 'week' });
    expect(read('quality=4k&uploaded=today')).toEqual({ quality: '4k', uploaded: 'today' });
    expect(read('')).toEqual({});
  });

  it('leaves out what the API would refuse, and a range whose minimum is above its maximum', () => {
    expect(read('minDuration=-1&maxDuration=1e3&quality=HD&uploaded=decade')).toEqual({});
    expect(read('minDuration=86401&maxDuration=12.5')).toEqual({});
    expect(read('minDuration=1200&maxDuration=600')).toEqual({});
    expect(read('minDuration=0&maxDuration=86400')).toEqual({ minDuration: 0, maxDuration: 86400 });
  });

  it('reads the first value of a repeated parameter, as URLSearchParams.get does', () => {
    expect(read('quality=4k&quality=hd')).toEqual({ quality: '4k' });
  });

  it('writes the filters back in one order', () => {
    expect(listingFilterParams({ uploaded: 'year', quality: 'hd', maxDuration: 599 })).toEqual([['maxDuration', '599'], ['quality', 'hd'], ['uploaded', 'year']]);
    expect(listingFilterParams(read('uploaded=month&minDuration=1200'))).toEqual([['minDuration', '1200'], ['uploaded', 'month']]);
  });
});

describe('exclude', () => {
  it('reads ids by kind, sorted and each once', () => {
    expect(parseExclude('performer:ace,category:bears,category:gym,category:bears,tag:leather')).toEqual({ categories: ['bears', 'gym'], performers: ['ace'], tags: ['leather'] });
    expect(parseExclude('')).toEqual({ categories: [], performers: [], tags: [] });
  });

  it.each(['bears', 'colour:red', 'category:', 'category:Bears', 'category:-x', 'category:a b', 'category:a,,performer:'])('refuses %s', (value) => {
    expect(parseExclude(value)).toBeNull();
  });

  it(`takes at most ${EXCLUDE_MAX} ids`, () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `category:c${i}`).join(',');
    expect(parseExclude(ids(EXCLUDE_MAX))?.categories).toHaveLength(EXCLUDE_MAX);
    expect(parseExclude(ids(EXCLUDE_MAX + 1))).toBeNull();
  });
});

describe('formatExclude', () => {
  it('writes topics canonically, and parseExclude reads them back', () => {
    const topics = { categories: ['vintage', 'bears', 'bears'], performers: [], tags: ['feet'] };
    expect(formatExclude(topics)).toBe('category:bears,category:vintage,tag:feet');
    expect(parseExclude(formatExclude(topics))).toEqual({ categories: ['bears', 'vintage'], performers: [], tags: ['feet'] });
    expect(formatExclude({ categories: [], performers: [], tags: [] })).toBe('');
  });
});
