import { createHash } from 'node:crypto';
import { checkSignature, folderToken, parseSignedPath, signedLifetimeSeconds, signedPath } from './signing';

const KEY = 'test-signing-key-0000';

describe('signing', () => {
  it('makes the token nginx secure_link_md5 "$secure_link_expires$dir KEY" expects', () => {
    const expected = createHash('md5').update(`1800000000/videos/2024/06/pool-party/ ${KEY}`).digest('base64')
      .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(folderToken('/videos/2024/06/pool-party/', 1_800_000_000, KEY)).toBe(expected);
    expect(expected).toHaveLength(22);
  });

  it('puts the token in the path, before the folder it covers', () => {
    const token = folderToken('/videos/a/b/', 1_800_000_000, KEY);
    expect(signedPath('/videos/a/b/', 'index.m3u8', 1_800_000_000, KEY)).toBe(`/s/${token},1800000000/videos/a/b/index.m3u8`);
  });

  it('accepts the folder it signed, refuses others, a tampered token and, once expired, answers expired', () => {
    const token = folderToken('/videos/a/', 2000, KEY);
    expect(checkSignature(token, 2000, '/videos/a/', KEY, 1000)).toBe('valid');
    expect(checkSignature(token, 2000, '/videos/b/', KEY, 1000)).toBe('invalid');
    expect(checkSignature(token, 2000, '/videos/a/sub/', KEY, 1000)).toBe('invalid');
    expect(checkSignature(token, 2001, '/videos/a/', KEY, 1000)).toBe('invalid');
    const tampered = `${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`;
    expect(checkSignature(tampered, 2000, '/videos/a/', KEY, 1000)).toBe('invalid');
    expect(checkSignature(token, 2000, '/videos/a/', 'another-key-0000000', 1000)).toBe('invalid');
    expect(checkSignature(token, 2000, '/videos/a/', KEY, 2000)).toBe('expired');
    expect(checkSignature('short', 2000, '/videos/a/', KEY, 3000)).toBe('invalid');
  });

  it('lasts at least two hours, three times the duration for long videos', () => {
    expect(signedLifetimeSeconds(null)).toBe(7200);
    expect(signedLifetimeSeconds(60)).toBe(7200);
    expect(signedLifetimeSeconds(4000)).toBe(12_000);
  });

  it('parses signed paths and rejects other shapes', () => {
    const t = 'A'.repeat(22);
    expect(parseSignedPath(`/${t},123/videos/2024/06/x/seg-1.ts`)).toEqual({ token: t, expires: 123, folder: '/videos/2024/06/x/', file: 'seg-1.ts' });
    expect(parseSignedPath(`/${t},123/videos/my%20clip/index.m3u8`)).toEqual({ token: t, expires: 123, folder: '/videos/my clip/', file: 'index.m3u8' });
    for (const bad of [
      `/${t},123/thumbs/x/poster.jpg`, `/${t},123/videos/index.m3u8`, `/${t},abc/videos/x/a.ts`, `/short,123/videos/x/a.ts`,
      `/${t},123/videos/x/../y/a.ts`, `/${t},123/videos/x/%2e%2e/a.ts`, `/${t},123/videos/x/`, `/${t},123/videos/x/%E0%A4%A`,
    ]) {
      expect(parseSignedPath(bad)).toBeNull();
    }
  });
});
