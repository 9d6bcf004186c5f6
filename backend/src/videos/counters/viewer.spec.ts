import { viewerKey } from './viewer';

describe('viewerKey', () => {
  it('names a signed-in user by id, whatever their network', () => {
    expect(viewerKey('user-1', '203.0.113.5', 's')).toBe('u:user-1');
    expect(viewerKey('user-1', '198.51.100.1', 's')).toBe('u:user-1');
  });

  it('hashes the network for anyone else, never exposing the address', () => {
    const key = viewerKey(null, '203.0.113.5', 'secret');
    expect(key).toMatch(/^a:[A-Za-z0-9_-]{22}$/);
    expect(key).not.toContain('203.0.113.5');
    expect(viewerKey(null, '203.0.113.5', 'secret')).toBe(key);
    expect(viewerKey(null, '203.0.113.6', 'secret')).not.toBe(key);
    expect(viewerKey(null, '2001:db8:1:2::/64', 'secret')).not.toBe(key);
    expect(viewerKey(null, '203.0.113.5', 'other secret')).not.toBe(key);
  });
});
