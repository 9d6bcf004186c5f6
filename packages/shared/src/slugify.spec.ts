import { describe, expect, it } from 'vitest';
import { slugify } from './slugify.js';

describe('slugify', () => {
  it.each([
    ['Big Muscle Men!', 'big-muscle-men'],
    ['  Leather & Latex  ', 'leather-latex'],
    ['Crème Brûlée', 'creme-brulee'],
    ['Ñandú São Paulo', 'nandu-sao-paulo'],
    ['--Already-slugged--', 'already-slugged'],
    ['Twinks/Jocks___Bears', 'twinks-jocks-bears'],
    ['ABC 123', 'abc-123'],
    ['Ｆｕｌｌｗｉｄｔｈ', 'fullwidth'],
  ])('turns %j into %j', (name, id) => {
    expect(slugify(name)).toBe(id);
  });

  it('returns an empty string when no letter or digit is left', () => {
    expect(slugify('!!! ???')).toBe('');
    expect(slugify('日本語')).toBe('');
  });

  it('caps the length without leaving a trailing dash', () => {
    const slug = slugify(`${'a'.repeat(99)} b`);
    expect(slug).toBe('a'.repeat(99));
    expect(slugify('x'.repeat(300))).toHaveLength(100);
  });

  it('is idempotent', () => {
    for (const name of ['Big Muscle Men!', 'Crème Brûlée', 'a--b']) {
      expect(slugify(slugify(name))).toBe(slugify(name));
    }
  });
});
