import { sniffImageType } from './image-type';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

/** An ISO-BMFF `ftyp` box with these brands, followed by some payload. */
const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + 4 * compatible.length;
  return bytes([0, 0, 0, size], 'ftyp', major, [0, 0, 0, 0], compatible.join(''), [0, 0, 0, 8], 'meta');
};

describe('sniffImageType', () => {
  it('recognises JPEG by FF D8 FF', () => {
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'))).toBe('jpeg');
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff]))).toBe('jpeg');
  });

  it('recognises PNG by its whole 8-byte signature', () => {
    expect(sniffImageType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR'))).toBe('png');
    expect(sniffImageType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00], 'IHDR'))).toBeNull();
  });

  it('recognises WebP as a RIFF container of form WEBP, and not other RIFF forms', () => {
    expect(sniffImageType(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).toBe('webp');
    expect(sniffImageType(bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '))).toBeNull();
    expect(sniffImageType(bytes('RIFF', [0x24, 0, 0, 0], 'WEB'))).toBeNull();
  });

  it('recognises AVIF by the major brand or a compatible brand of the ftyp box', () => {
    expect(sniffImageType(ftyp('avif', 'mif1', 'miaf'))).toBe('avif');
    expect(sniffImageType(ftyp('avis', 'msf1'))).toBe('avif');
    expect(sniffImageType(ftyp('mif1', 'miaf', 'avif'))).toBe('avif');
  });

  it('refuses other ISO-BMFF files and malformed ftyp boxes', () => {
    expect(sniffImageType(ftyp('heic', 'mif1', 'heic'))).toBeNull();
    expect(sniffImageType(ftyp('isom', 'iso2', 'mp41'))).toBeNull();
    // The brand sits past the box's declared size: it is not one of its brands.
    const outside = ftyp('mif1', 'miaf', 'avif');
    outside.writeUInt32BE(20, 0);
    expect(sniffImageType(outside)).toBeNull();
    // A declared size larger than the bytes.
    const truncated = ftyp('avif');
    truncated.writeUInt32BE(64, 0);
    expect(sniffImageType(truncated)).toBeNull();
    expect(sniffImageType(bytes([0, 0, 0, 8], 'ftyp'))).toBeNull();
  });

  it('refuses GIF, SVG, HTML, text and empty input', () => {
    expect(sniffImageType(bytes('GIF89a', [1, 0, 1, 0]))).toBeNull();
    expect(sniffImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(bytes('<!doctype html><img src=x.jpg>'))).toBeNull();
    expect(sniffImageType(bytes([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  it('reads a view into a larger buffer from its own offset', () => {
    const whole = bytes('junk', [0xff, 0xd8, 0xff, 0xe0]);
    expect(sniffImageType(whole.subarray(4))).toBe('jpeg');
    expect(sniffImageType(new Uint8Array(whole.buffer, whole.byteOffset, 4))).toBeNull();
  });
});
