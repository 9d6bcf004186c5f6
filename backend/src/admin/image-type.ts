export type ImageType = 'jpeg' | 'png' | 'webp' | 'avif';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/**
 * The image type of `bytes` by their signature, never by a name or a declared type: JPEG (FF D8 FF), PNG (its
 * 8-byte signature), WebP (a RIFF container of form WEBP) or AVIF (an ISO-BMFF `ftyp` box whose major or one of
 * whose compatible brands is `avif` or `avis`). Anything else is null.
 */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (b.length >= 12 && ascii(b, 0) === 'RIFF' && ascii(b, 8) === 'WEBP') return 'webp';
  if (isAvif(b)) return 'avif';
  return null;
}

/** An `ftyp` box first: size (32-bit, covering the box), 'ftyp', major brand, minor version, compatible brands. */
function isAvif(b: Buffer): boolean {
  if (b.length < 16 || ascii(b, 4) !== 'ftyp') return false;
  const size = b.readUInt32BE(0);
  if (size < 16 || size > b.length || size % 4 !== 0) return false;
  if (AVIF_BRANDS.has(ascii(b, 8))) return true;
  for (let offset = 16; offset + 4 <= size; offset += 4) {
    if (AVIF_BRANDS.has(ascii(b, offset))) return true;
  }
  return false;
}

const ascii = (b: Buffer, offset: number) => b.toString('latin1', offset, offset + 4);
