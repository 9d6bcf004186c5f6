import { firstVariantName, mediaSegments, segmentAt } from './hls-playlist';

const VARIANT = [
  '#EXTM3U',
  '#EXT-X-VERSION:6',
  '#EXT-X-TARGETDURATION:4',
  '#EXT-X-MEDIA-SEQUENCE:0',
  '#EXT-X-PLAYLIST-TYPE:VOD',
  '#EXTINF:4.000000,',
  '240p_000.ts',
  '#EXTINF:4.000000,',
  '240p_001.ts',
  '#EXTINF:2.5,',
  '240p_002.ts',
  '#EXT-X-ENDLIST',
  '',
].join('\n');

describe('firstVariantName', () => {
  it('names the first variant a master lists, as hls.js starts with it', () => {
    expect(firstVariantName('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=510400\n240p.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1680800\n480p.m3u8\n')).toBe('240p.m3u8');
    expect(firstVariantName('#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\n  360p.m3u8  \r\n')).toBe('360p.m3u8');
  });

  it.each(['../c/240p.m3u8', '/videos/240p.m3u8', 'https://cdn.example/240p.m3u8', 'a b.m3u8', ''])('names none for %j', (line) => {
    expect(firstVariantName(`#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n${line}\n`)).toBeNull();
  });
});

describe('mediaSegments', () => {
  it("lists a variant's segments with their times", () => {
    expect(mediaSegments(VARIANT)).toEqual([
      { name: '240p_000.ts', start: 0, end: 4 },
      { name: '240p_001.ts', start: 4, end: 8 },
      { name: '240p_002.ts', start: 8, end: 10.5 },
    ]);
    expect(mediaSegments(VARIANT.replaceAll('\n', '\r\n'))).toHaveLength(3);
    expect(mediaSegments('#EXTM3U\n#EXT-X-ENDLIST\n')).toEqual([]);
  });

  it.each([
    ['a segment elsewhere', VARIANT.replace('240p_001.ts', '../other/240p_001.ts')],
    ['a remote segment', VARIANT.replace('240p_001.ts', 'https://cdn.example/240p_001.ts')],
    ['a segment without a duration', VARIANT.replace('#EXTINF:2.5,\n', '')],
    ['byte ranges', VARIANT.replace('#EXTINF:4.000000,\n240p_000.ts', '#EXTINF:4.000000,\n#EXT-X-BYTERANGE:1000@0\n240p_000.ts')],
    ['an fMP4 initialisation section', VARIANT.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI="init.mp4"')],
    ['encryption', VARIANT.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:METHOD=AES-128,URI="key"')],
  ])('is null for %s', (_, text) => {
    expect(mediaSegments(text)).toBeNull();
  });
});

describe('segmentAt', () => {
  const segments = mediaSegments(VARIANT) ?? [];

  it.each([
    [0, '240p_000.ts'],
    [-3, '240p_000.ts'],
    [3.99, '240p_000.ts'],
    [4, '240p_001.ts'],
    [9, '240p_002.ts'],
    [10.4, '240p_002.ts'],
  ])('starts at %d with %s', (position, name) => {
    expect(segmentAt(segments, position)?.name).toBe(name);
  });

  it('is null past the end, and for no segments', () => {
    expect(segmentAt(segments, 10.5)).toBeNull();
    expect(segmentAt(segments, 3600)).toBeNull();
    expect(segmentAt([], 0)).toBeNull();
  });
});
