import { preferredCoding } from './web-client.middleware';

describe('the web client middleware', () => {
  it('prefers brotli, then gzip, as Accept-Encoding allows', () => {
    expect(preferredCoding('gzip, deflate, br, zstd', ['br', 'gzip'])).toBe('br');
    expect(preferredCoding('gzip', ['br', 'gzip'])).toBe('gzip');
    expect(preferredCoding('br;q=0, *;q=0.5', ['br', 'gzip'])).toBe('gzip');
    expect(preferredCoding('identity', ['br', 'gzip'])).toBeNull();
    expect(preferredCoding(undefined, ['br', 'gzip'])).toBeNull();
  });
});
