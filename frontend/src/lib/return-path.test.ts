import { describe, expect, it } from 'vitest';
import { loginHref, refFor, returnPath } from './return-path';

const origin = 'https://hunk.example';

describe('returnPath', () => {
  it.each([
    ['video/7', '/video/7'],
    ['video/7?context=playlist&playlist=3', '/video/7?context=playlist&playlist=3'],
    ['video/7?context=watch-later', '/video/7?context=watch-later'],
    ['', '/'],
    [null, '/'],
    ['a/../video/7', '/video/7'],
    ['./video/7', '/video/7'],
  ])('follows the same-site ref %j to %s', (ref, expected) => {
    expect(returnPath(ref, origin)).toBe(expected);
  });

  it.each([
    '//evil.com',
    '/evil.com',
    '\\evil.com',
    '/\\evil.com',
    '\\\\evil.com',
    'https://evil.com',
    'javascript:alert(1)',
    '\t/evil.com',
    '/\t/evil.com',
    './/evil.com',
    'x/../\\evil.com',
    'x/..//evil.com',
    'a/b/../..//evil.com',
  ])('refuses %j and leads home', (ref) => {
    expect(returnPath(ref, origin)).toBe('/');
  });
});

describe('refFor and loginHref', () => {
  it('drops the leading slash and keeps a plain path readable', () => {
    expect(refFor('/video/7')).toBe('video/7');
    expect(loginHref('/video/7')).toBe('/login?ref=video/7');
  });

  it('keeps the whole query inside ref, so the login page gets it back intact', () => {
    const href = loginHref('/video/7', '?context=playlist&playlist=3');
    const ref = new URL(href, origin).searchParams.get('ref');
    expect(ref).toBe('video/7?context=playlist&playlist=3');
    expect(returnPath(ref, origin)).toBe('/video/7?context=playlist&playlist=3');
    expect(loginHref('/video/7', '?context=watch-later')).toBe('/login?ref=video/7?context=watch-later');
  });
});
