import { viewerKey } from './viewer';

describe('viewerKey', () => {
  it('names a signed-in user by id, whatever their address', () => {
    expect(viewerKey('user-1', '203.0.113.5', 'UA', 's')).toBe('u:user-1');
    expect(viewerKey('user-1', '198.51.100.1', 'Other', 's')).toBe('u:user-1');
  });

  it('hashes address and user agent for anyone else, never exposing the address', () => {
    const key = viewerKey(null, '203.0.113.5', 'Mozilla/5.0', 'secret');
    expect(key).toMatch(/^a:[A-Za-z0-9_-]{22}$/);
    expect(key).not.toContain('203.0.113.5');
    expect(viewerKey(null, '203.0.113.5', 'Mozilla/5.0', 'secret')).toBe(key);
    expect(viewerKey(null, '203.0.113.6', 'Mozilla/5.0', 'secret')).not.toBe(key);
    expect(viewerKey(null, '203.0.113.5', 'curl/8', 'secret')).not.toBe(key);
    expect(viewerKey(null, '203.0.113.5', 'Mozilla/5.0', 'other secret')).not.toBe(key);
  });
});
