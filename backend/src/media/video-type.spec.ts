import { DEMUXERS, sniffVideoType, VIDEO_TYPE_NAMES } from './video-type';

describe('sniffVideoType', () => {
  const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc(512)]);

  it('recognises containers by their bytes', () => {
    expect(sniffVideoType(pad(Buffer.from([0, 0, 0, 0x20, ...Buffer.from('ftypisom')])))).toBe('mp4');
    expect(sniffVideoType(pad(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])))).toBe('matroska');
    expect(sniffVideoType(pad(Buffer.from('RIFF\0\0\0\0AVI LIST')))).toBe('avi');
    const ts = Buffer.alloc(600);
    ts[0] = ts[188] = ts[376] = 0x47;
    expect(sniffVideoType(ts)).toBe('mpegts');
    expect(sniffVideoType(pad(Buffer.from('FLV\x01')))).toBe('flv');
    expect(sniffVideoType(pad(Buffer.from([0, 0, 1, 0xba, 0x44])))).toBe('mpegps');
  });

  it('refuses other bytes whatever the file is called', () => {
    expect(sniffVideoType(pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0])))).toBeNull();
    expect(sniffVideoType(pad(Buffer.from('<?php echo 1; ?>')))).toBeNull();
    expect(sniffVideoType(Buffer.alloc(0))).toBeNull();
  });
});

describe('DEMUXERS', () => {
  it("names ffmpeg's demuxer for every sniffed type", () => {
    expect(DEMUXERS).toEqual({ mp4: 'mov', matroska: 'matroska', avi: 'avi', mpegts: 'mpegts', mpegps: 'mpeg', flv: 'flv' });
    expect(Object.keys(VIDEO_TYPE_NAMES).sort()).toEqual(Object.keys(DEMUXERS).sort());
  });
});
