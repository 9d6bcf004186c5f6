import { randomBytes } from 'node:crypto';
import {
  decryptSegment, encryptSegment, keyEncryptionKey, keyIdsOf, newKey, newKeyId, planPlaylist, type SealableFolder,
  sealRenditions, sequenceIv, unwrapKey, wrapKey,
} from './hls-encryption';
import { requiredVersion } from './hls-playlist';

const SECRET = 's'.repeat(43);

const CLEAR = [
  '#EXTM3U',
  '#EXT-X-VERSION:3',
  '#EXT-X-TARGETDURATION:4',
  '#EXT-X-MEDIA-SEQUENCE:0',
  '#EXT-X-PLAYLIST-TYPE:VOD',
  '#EXTINF:4.000000,',
  '240p_000.ts',
  '#EXTINF:2.500000,',
  '240p_001.ts',
  '#EXT-X-ENDLIST',
].join('\n');

/** A folder in memory, as the workspace or the store would hold it. */
function memoryFolder(files: Record<string, Buffer | string>): SealableFolder & { files: Map<string, Buffer> } {
  const map = new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)]));
  const read = async (name: string) => {
    const file = map.get(name);
    if (!file) throw new Error(`${name}: no such file`);
    return file;
  };
  return {
    files: map,
    readBytes: read,
    readText: async (name) => (await read(name)).toString('utf8'),
    write: async (name, body) => void map.set(name, Buffer.from(body)),
  };
}

describe('HLS keys, wrapped', () => {
  const kek = keyEncryptionKey(SECRET);

  it('opens with the secret, the folder and the id they were wrapped with, and with nothing else', () => {
    const key = newKey();
    const wrapped = wrapKey(kek, key, '2026/11/clip', 'aaaaaaaaaaaaaaaa');
    expect(wrapped).toHaveLength(45);
    expect(wrapped.includes(key)).toBe(false);
    expect(unwrapKey(kek, wrapped, '2026/11/clip', 'aaaaaaaaaaaaaaaa').equals(key)).toBe(true);
    expect(() => unwrapKey(keyEncryptionKey('t'.repeat(43)), wrapped, '2026/11/clip', 'aaaaaaaaaaaaaaaa')).toThrow();
    expect(() => unwrapKey(kek, wrapped, '2026/11/other', 'aaaaaaaaaaaaaaaa')).toThrow();
    expect(() => unwrapKey(kek, wrapped, '2026/11/clip', 'bbbbbbbbbbbbbbbb')).toThrow();
    const tampered = Buffer.from(wrapped);
    tampered[20] ^= 1;
    expect(() => unwrapKey(kek, tampered, '2026/11/clip', 'aaaaaaaaaaaaaaaa')).toThrow();
  });

  it('gives each key its own random id and bytes', () => {
    expect(newKeyId()).toMatch(/^[0-9a-f]{16}$/);
    expect(newKeyId()).not.toBe(newKeyId());
    expect(newKey()).toHaveLength(16);
    expect(newKey().equals(newKey())).toBe(false);
  });
});

describe('HLS segments, sealed', () => {
  it('round-trips under AES-128-CBC with the sequence number as IV, as RFC 8216 §5.2 reads it', () => {
    const key = newKey();
    const plain = randomBytes(188 * 10);
    const sealed = encryptSegment(plain, key, sequenceIv(3));
    // PKCS#7: always 1 to 16 bytes of padding (1880 = 117 × 16 + 8).
    expect(sealed.length).toBe(1888);
    expect(decryptSegment(sealed, key, sequenceIv(3)).equals(plain)).toBe(true);
    const withAnother = (() => {
      try {
        return decryptSegment(sealed, newKey(), sequenceIv(3));
      } catch {
        return null; // the padding did not check out
      }
    })();
    expect(withAnother?.equals(plain) ?? false).toBe(false);
    expect(decryptSegment(sealed, key, sequenceIv(4)).equals(plain)).toBe(false);
    expect(sequenceIv(258).toString('hex')).toBe('00000000000000000000000000000102');
  });

  it('plans a clear playlist under a key: one key tag before the first segment, names that carry the key id', () => {
    const plan = planPlaylist(CLEAR, '0123456789abcdef');
    expect(plan.text.split('\n')).toEqual([
      '#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:4', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXT-X-KEY:METHOD=AES-128,URI="0123456789abcdef.key"',
      '#EXTINF:4.000000,', '240p_000-0123456789abcdef.ts', '#EXTINF:2.500000,', '240p_001-0123456789abcdef.ts', '#EXT-X-ENDLIST',
    ]);
    expect(plan.segments.map((s) => [s.from, s.to, s.current, s.iv.readUInt8(15)])).toEqual([
      ['240p_000.ts', '240p_000-0123456789abcdef.ts', null, 0],
      ['240p_001.ts', '240p_001-0123456789abcdef.ts', null, 1],
    ]);
    // No IV attribute: the version the playlist needs does not change.
    expect(requiredVersion(plan.text)).toBe(requiredVersion(CLEAR));
    expect(keyIdsOf(plan.text)).toEqual(['0123456789abcdef']);
  });

  it('plans a sealed playlist under a new key, knowing each segment\'s old key and IV', () => {
    const sealed = planPlaylist(CLEAR.replace('#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-MEDIA-SEQUENCE:7'), '0123456789abcdef').text;
    const again = planPlaylist(sealed, 'fedcba9876543210');
    expect(again.text).not.toContain('0123456789abcdef');
    expect(again.text.match(/#EXT-X-KEY/g)).toHaveLength(1);
    expect(again.segments.map((s) => [s.from, s.to, s.current?.keyId, s.current?.iv.readUInt8(15), s.iv.readUInt8(15)])).toEqual([
      ['240p_000-0123456789abcdef.ts', '240p_000-fedcba9876543210.ts', '0123456789abcdef', 7, 7],
      ['240p_001-0123456789abcdef.ts', '240p_001-fedcba9876543210.ts', '0123456789abcdef', 8, 8],
    ]);
  });

  it('refuses what it cannot re-key: another method, a key of elsewhere, byte ranges, segments elsewhere', () => {
    const id = '0123456789abcdef';
    expect(() => planPlaylist(CLEAR.replace('#EXTINF:4', '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="x.key"\n#EXTINF:4'), id)).toThrow(/did not make/);
    expect(() => planPlaylist(CLEAR.replace('#EXTINF:4', '#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k"\n#EXTINF:4'), id)).toThrow(/did not make/);
    expect(() => planPlaylist(CLEAR.replace('#EXTINF:4', '#EXT-X-BYTERANGE:100@0\n#EXTINF:4'), id)).toThrow(/byte ranges/);
    expect(() => planPlaylist(CLEAR.replace('240p_000.ts', '../other/240p_000.ts'), id)).toThrow(/not a file/);
    expect(() => planPlaylist(CLEAR, 'not-an-id')).toThrow(/not a key id/);
  });

  it('seals a folder\'s renditions, writing each playlist after its segments, and re-seals them under a new key', async () => {
    const plain = [randomBytes(1880), randomBytes(940)];
    const folder = memoryFolder({ '240p.m3u8': CLEAR, '240p_000.ts': plain[0], '240p_001.ts': plain[1] });
    const order: string[] = [];
    const write = folder.write;
    folder.write = (name, body) => (order.push(name), write(name, body));
    const first = { keyId: '0123456789abcdef', key: newKey() };
    const noKeys = () => Promise.reject(new Error('no old key'));
    expect(await sealRenditions(folder, ['240p.m3u8'], first, noKeys)).toEqual({ replaced: ['240p_000.ts', '240p_001.ts'], oldKeyIds: [], segments: 2 });
    expect(order).toEqual(['240p_000-0123456789abcdef.ts', '240p_001-0123456789abcdef.ts', '240p.m3u8']);
    const sealed = folder.files.get('240p_000-0123456789abcdef.ts') as Buffer;
    expect(decryptSegment(sealed, first.key, sequenceIv(0)).equals(plain[0])).toBe(true);

    const second = { keyId: 'fedcba9876543210', key: newKey() };
    const asked: string[] = [];
    const result = await sealRenditions(folder, ['240p.m3u8'], second, async (id) => (asked.push(id), first.key));
    expect(result).toEqual({ replaced: ['240p_000-0123456789abcdef.ts', '240p_001-0123456789abcdef.ts'], oldKeyIds: ['0123456789abcdef'], segments: 2 });
    expect(new Set(asked)).toEqual(new Set(['0123456789abcdef']));
    const resealed = folder.files.get('240p_001-fedcba9876543210.ts') as Buffer;
    expect(decryptSegment(resealed, second.key, sequenceIv(1)).equals(plain[1])).toBe(true);
    expect(keyIdsOf(folder.files.get('240p.m3u8')?.toString() ?? '')).toEqual(['fedcba9876543210']);
  });
});
