import { toPrefixTsQuery } from './search-query';

describe('toPrefixTsQuery', () => {
  it('makes every word a prefix term joined by AND', () => {
    expect(toPrefixTsQuery('Pool Party')).toBe('pool:* & party:*');
  });

  it('drops tsquery operators and punctuation', () => {
    expect(toPrefixTsQuery(`a & b | !c <-> 'd':*`)).toBe('a:* & b:* & c:* & d:*');
  });

  it('returns null when nothing searchable is left', () => {
    expect(toPrefixTsQuery('  !!! & | ')).toBeNull();
    expect(toPrefixTsQuery('')).toBeNull();
  });

  it('keeps letters beyond ASCII and caps the number of terms', () => {
    expect(toPrefixTsQuery('Crème brûlée')).toBe('crème:* & brûlée:*');
    expect(toPrefixTsQuery('a b c d e f g h i j')?.split(' & ')).toHaveLength(8);
  });
});
