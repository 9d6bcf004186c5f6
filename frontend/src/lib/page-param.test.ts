import { describe, expect, it } from 'vitest';
import { pageSearch, parsePage } from './page-param';

describe('parsePage', () => {
  it('reads a whole page number', () => {
    expect(parsePage('3')).toBe(3);
  });

  it('falls back to the first page for a missing, zero, negative or unreadable value', () => {
    for (const value of [null, '', '0', '-2', '2.5', 'abc', '1e3', '99999999999']) {
      expect(parsePage(value)).toBe(1);
    }
  });
});

describe('pageSearch', () => {
  it('leaves the first page out of the link', () => {
    expect(pageSearch(1)).toBe('');
    expect(pageSearch(2)).toBe('?page=2');
  });
});
