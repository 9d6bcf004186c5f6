import {
  averageSegmentBitRate, declaredVersion, firstVariantName, largestSegmentBitRate, mediaSegments, parseAttributes, peakSegmentBitRate, requiredVersion,
  restateMaster, segmentAt, targetDurationOf, variantBitRates, variantUris, withRequiredVersion,
} from './hls-playlist';

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

  it("names each sealed segment's key, a file of the folder, until a key tag says NONE", () => {
    const sealed = VARIANT.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:METHOD=AES-128,URI="0123456789abcdef.key"')
      .replace('#EXTINF:2.5,', '#EXT-X-KEY:METHOD=NONE\n#EXTINF:2.5,');
    expect(mediaSegments(sealed)).toEqual([
      { name: '240p_000.ts', start: 0, end: 4, key: '0123456789abcdef.key' },
      { name: '240p_001.ts', start: 4, end: 8, key: '0123456789abcdef.key' },
      { name: '240p_002.ts', start: 8, end: 10.5 },
    ]);
    expect(mediaSegments(sealed)?.[2]).not.toHaveProperty('key');
  });

  it.each([
    ['a segment elsewhere', VARIANT.replace('240p_001.ts', '../other/240p_001.ts')],
    ['a remote segment', VARIANT.replace('240p_001.ts', 'https://cdn.example/240p_001.ts')],
    ['a segment without a duration', VARIANT.replace('#EXTINF:2.5,\n', '')],
    ['byte ranges', VARIANT.replace('#EXTINF:4.000000,\n240p_000.ts', '#EXTINF:4.000000,\n#EXT-X-BYTERANGE:1000@0\n240p_000.ts')],
    ['an fMP4 initialisation section', VARIANT.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI="init.mp4"')],
    ['a key elsewhere', VARIANT.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k"')],
    ['sample encryption', VARIANT.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k.key"')],
    ['a key format', VARIANT.replace('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:METHOD=AES-128,URI="k.key",KEYFORMAT="com.apple.streamingkeydelivery"')],
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

describe('bit rates (RFC 8216 §4.1)', () => {
  // 4 s segments of 250 kB (500 kbit/s), then a 1 s tail of 75 kB (600 kbit/s on its own).
  const ladder = [
    { bytes: 250_000, seconds: 4 },
    { bytes: 250_000, seconds: 4 },
    { bytes: 75_000, seconds: 1 },
  ];

  it('averages every segment: total bits over total duration', () => {
    expect(averageSegmentBitRate(ladder)).toBeCloseTo((575_000 * 8) / 9, 6);
    expect(averageSegmentBitRate([])).toBe(0);
  });

  it('takes the peak over sets of 0.5 to 1.5 target durations: a tail under half of it counts with the segment before', () => {
    // Sets: [0] 500k, [1] 500k, [1,2] 5 s 520k; [2] alone is 1 s, under 2 s; [0,1] is 8 s, over 6 s.
    expect(peakSegmentBitRate(ladder, 4)).toBeCloseTo((325_000 * 8) / 5, 6);
    // A tail of half the target or more is a set of its own.
    const longTail = [...ladder.slice(0, 2), { bytes: 150_000, seconds: 2 }];
    expect(peakSegmentBitRate(longTail, 4)).toBe(600_000);
  });

  it('counts the bounds in, whatever the decimal durations add up to', () => {
    // 0.6 + 0.7 + 0.7 is 1.9999999999999998 s: still the set of half the target duration.
    const atHalf = [{ bytes: 1000, seconds: 0.6 }, { bytes: 1000, seconds: 0.7 }, { bytes: 1000, seconds: 0.7 }, { bytes: 100, seconds: 4 }];
    expect(peakSegmentBitRate(atHalf, 4)).toBeCloseTo((3000 * 8) / 2, 6);
    // 0.2 + 4.9 + 0.9 is 6.000000000000001 s: still the set of 1.5 target durations.
    const atOneAndAHalf = [{ bytes: 2000, seconds: 0.2 }, { bytes: 100, seconds: 4.9 }, { bytes: 2000, seconds: 0.9 }];
    expect(peakSegmentBitRate(atOneAndAHalf, 4)).toBeCloseTo((4100 * 8) / 6, 6);
    expect(peakSegmentBitRate([{ bytes: 1000, seconds: 6 }, { bytes: 9000, seconds: 6.5 }], 4)).toBe((1000 * 8) / 6);
  });

  it('falls back to the whole playlist when it is shorter than half the target duration', () => {
    expect(peakSegmentBitRate([{ bytes: 10_000, seconds: 1.5 }], 4)).toBeCloseTo((10_000 * 8) / 1.5, 6);
    expect(peakSegmentBitRate([], 4)).toBe(0);
  });

  it('declares both rounded up, BANDWIDTH never under the peak, any one segment (a short tail too) or the average', () => {
    // The RFC's peak is 520 kbit/s; the 1 s tail alone is 600.
    expect(variantBitRates(ladder, 4)).toEqual({ bandwidth: 600_000, averageBandwidth: 511_112 });
    expect(largestSegmentBitRate(ladder)).toBe(600_000);
    expect(largestSegmentBitRate([])).toBe(0);
    // Without a short tail, it is the RFC's peak.
    expect(variantBitRates(ladder.slice(0, 2), 4).bandwidth).toBe(500_000);
    expect(variantBitRates([...ladder.slice(0, 2), { bytes: 100_000, seconds: 1 }], 4)).toEqual({ bandwidth: 800_000, averageBandwidth: 533_334 });
    expect(variantBitRates([...ladder.slice(0, 2), { bytes: 25_000, seconds: 1 }], 4).bandwidth).toBe(500_000);
    expect(variantBitRates([{ bytes: 1, seconds: 3 }], 4)).toEqual({ bandwidth: 3, averageBandwidth: 3 });
    // A set's peak below the average cannot be declared: a fast first half, a slow second, each 2 s.
    expect(variantBitRates([{ bytes: 100, seconds: 3 }, { bytes: 10_000, seconds: 3 }], 2).bandwidth).toBeGreaterThanOrEqual(Math.ceil((10_100 * 8) / 6));
  });

  it('reads the target duration', () => {
    expect(targetDurationOf(VARIANT)).toBe(4);
    expect(targetDurationOf('#EXTM3U\n')).toBeNull();
  });
});

describe('EXT-X-VERSION (RFC 8216 §7)', () => {
  const MASTER = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    '#EXT-X-STREAM-INF:BANDWIDTH=510400,AVERAGE-BANDWIDTH=464000,RESOLUTION=426x240,FRAME-RATE=30.000,CODECS="avc1.4d4028,mp4a.40.2"',
    '240p.m3u8',
    '#EXT-X-STREAM-INF:BANDWIDTH=985600,AVERAGE-BANDWIDTH=896000,RESOLUTION=640x360,FRAME-RATE=30.000,CODECS="avc1.4d4028,mp4a.40.2"',
    '360p.m3u8',
    '',
  ].join('\n');
  const media = (...tags: string[]) => ['#EXTM3U', '#EXT-X-TARGETDURATION:4', ...tags, '#EXTINF:4,', 'a.ts', '#EXT-X-ENDLIST', ''].join('\n');

  it('is 1 for a master of variant streams and for integer durations; 3 for decimal ones (ffmpeg writes 6)', () => {
    expect(requiredVersion(MASTER)).toBe(1);
    expect(requiredVersion(media('#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-INDEPENDENT-SEGMENTS'))).toBe(1);
    expect(requiredVersion(VARIANT)).toBe(3);
    expect(requiredVersion(media('#EXTINF:1e1,', 'b.ts'))).toBe(3);
  });

  it.each([
    ['an IV', '#EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x1', 2],
    ['byte ranges', '#EXT-X-BYTERANGE:100@0', 4],
    ['I-frames only', '#EXT-X-I-FRAMES-ONLY', 4],
    ['SAMPLE-AES', '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k"', 5],
    ['KEYFORMAT', '#EXT-X-KEY:METHOD=AES-128,URI="k",KEYFORMAT="identity"', 5],
    ['an initialisation section', '#EXT-X-MAP:URI="init.mp4"', 6],
    ['an initialisation section of I-frames', '#EXT-X-I-FRAMES-ONLY\n#EXT-X-MAP:URI="init.mp4"', 5],
  ])('needs more for %s', (_, tag, version) => {
    expect(requiredVersion(media(tag))).toBe(version);
  });

  it('needs 7 for SERVICE captions in a master, and cannot tell for tags RFC 8216 does not define', () => {
    expect(requiredVersion(`${MASTER}#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="a",INSTREAM-ID="SERVICE1"\n`)).toBe(7);
    expect(requiredVersion(`${MASTER}#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="a",INSTREAM-ID="CC1"\n`)).toBe(1);
    expect(requiredVersion(media('#EXT-X-DEFINE:NAME="x",VALUE="y"'))).toBeNull();
    expect(requiredVersion(media('# a comment, not a tag'))).toBe(1);
  });

  it('declares the lowest version as the line after #EXTM3U, once, and says when nothing can be told', () => {
    const honest = withRequiredVersion(VARIANT);
    expect(honest).toBe(VARIANT.replace('#EXT-X-VERSION:6', '#EXT-X-VERSION:3'));
    expect(withRequiredVersion(honest)).toBe(honest);
    expect(withRequiredVersion(MASTER).split('\n').slice(0, 3)).toEqual(['#EXTM3U', '#EXT-X-VERSION:1', '#EXT-X-INDEPENDENT-SEGMENTS']);
    expect(withRequiredVersion(VARIANT.replace('#EXT-X-VERSION:6\n', '')).split('\n')[1]).toBe('#EXT-X-VERSION:3');
    const unknown = media('#EXT-X-DEFINE:NAME="x",VALUE="y"');
    expect(withRequiredVersion(unknown)).toBe(unknown);
    expect(withRequiredVersion('not a playlist')).toBe('not a playlist');
    expect(declaredVersion(MASTER)).toBe(3);
    expect(declaredVersion(media())).toBe(1);
  });

  describe('restating a master', () => {
    it("restates each variant's bit rates and resolution, every other attribute and line as it was", () => {
      const rates: Record<string, { bandwidth: number; averageBandwidth: number; resolution?: string }> = {
        '240p.m3u8': { bandwidth: 521207, averageBandwidth: 496490 },
        '360p.m3u8': { bandwidth: 1_100_001, averageBandwidth: 1_000_001, resolution: '640x360' },
      };
      const restated = restateMaster(MASTER, (uri) => rates[uri]);
      expect(restated).toBe(
        MASTER.replace('BANDWIDTH=510400,AVERAGE-BANDWIDTH=464000', 'BANDWIDTH=521207,AVERAGE-BANDWIDTH=496490')
          .replace('BANDWIDTH=985600,AVERAGE-BANDWIDTH=896000', 'BANDWIDTH=1100001,AVERAGE-BANDWIDTH=1000001'),
      );
      expect(restateMaster(restated, (uri) => rates[uri])).toBe(restated);
      expect(restateMaster(MASTER, () => undefined)).toBe(MASTER);
    });

    it('adds AVERAGE-BANDWIDTH after BANDWIDTH when it was missing, and corrects RESOLUTION', () => {
      const old = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.4d4028,mp4a.40.2",RESOLUTION=428x240\n240p.m3u8\n';
      expect(restateMaster(old, () => ({ bandwidth: 7, averageBandwidth: 6, resolution: '426x240' }))).toBe(
        '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=7,AVERAGE-BANDWIDTH=6,CODECS="avc1.4d4028,mp4a.40.2",RESOLUTION=426x240\n240p.m3u8\n',
      );
    });

    it('reads attribute lists with quoted commas, and the variants a master names', () => {
      expect(parseAttributes('BANDWIDTH=1,CODECS="a,b",RESOLUTION=2x2')).toEqual([['BANDWIDTH', '1'], ['CODECS', '"a,b"'], ['RESOLUTION', '2x2']]);
      expect(variantUris(MASTER)).toEqual(['240p.m3u8', '360p.m3u8']);
      expect(variantUris('#EXTM3U\n')).toEqual([]);
    });
  });
});
