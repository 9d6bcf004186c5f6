import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { attributeValue } from './hls-playlist';

/**
 * HLS AES-128 (RFC 8216 §5.2, docs/media.md › Encrypted HLS): every media segment of a video is encrypted whole
 * with AES-128-CBC and PKCS#7 padding under the video's own 16-byte key. The playlist names the key with
 * `#EXT-X-KEY:METHOD=AES-128,URI="{keyId}.key"` and no IV attribute, so each segment's IV is its media sequence
 * number (never the same IV twice under one key). The key URI is relative: it resolves into the signed folder
 * of the playlist (`/s/{token},{expires}/videos/{stem}/{keyId}.key`), which only the API answers, to that
 * folder's token. A segment's name carries its key's id (`720p_004-{keyId}.ts`), so a re-key writes new names
 * beside the old ones and a player that holds the old playlist keeps playing until its link expires.
 */

/** A key's id: 16 hex digits, random; its file name in the playlist is `{id}.key`. */
export const KEY_ID = /^[0-9a-f]{16}$/;
export const KEY_FILE = /^([0-9a-f]{16})\.key$/;

export const newKeyId = (): string => randomBytes(8).toString('hex');
export const newKey = (): Buffer => randomBytes(16);

const WRAP_VERSION = 1;

/** The key-encryption key: HKDF-SHA256 of the install's secret, for this use only. */
export function keyEncryptionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'hunktube/hls-keys', 'key-encryption-key v1', 32));
}

/**
 * A video key as the database keeps it: version (1 byte), nonce (12), the key under AES-256-GCM (16), tag (16).
 * The folder and key id are the associated data, so a row copied to another video does not open.
 */
export function wrapKey(kek: Buffer, key: Buffer, stem: string, keyId: string): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, nonce);
  cipher.setAAD(Buffer.from(`${stem}/${keyId}`));
  const sealed = Buffer.concat([cipher.update(key), cipher.final()]);
  return Buffer.concat([Buffer.of(WRAP_VERSION), nonce, sealed, cipher.getAuthTag()]);
}

/** The video key, or an error when the secret, the folder or the bytes are not the ones it was wrapped with. */
export function unwrapKey(kek: Buffer, wrapped: Buffer, stem: string, keyId: string): Buffer {
  if (wrapped.length !== 45 || wrapped[0] !== WRAP_VERSION) throw new Error('not a wrapped HLS key');
  const decipher = createDecipheriv('aes-256-gcm', kek, wrapped.subarray(1, 13));
  decipher.setAAD(Buffer.from(`${stem}/${keyId}`));
  decipher.setAuthTag(wrapped.subarray(29, 45));
  return Buffer.concat([decipher.update(wrapped.subarray(13, 29)), decipher.final()]);
}

/** The IV of the segment with this media sequence number, when the key tag has none (RFC 8216 §5.2). */
export function sequenceIv(sequence: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(sequence), 8);
  return iv;
}

export function encryptSegment(plain: Buffer, key: Buffer, iv: Buffer): Buffer {
  const cipher = createCipheriv('aes-128-cbc', key, iv);
  return Buffer.concat([cipher.update(plain), cipher.final()]);
}

export function decryptSegment(sealed: Buffer, key: Buffer, iv: Buffer): Buffer {
  const decipher = createDecipheriv('aes-128-cbc', key, iv);
  return Buffer.concat([decipher.update(sealed), decipher.final()]);
}

/** How one segment of a media playlist is encrypted now (null: in the clear). */
export interface SegmentKey {
  keyId: string;
  iv: Buffer;
}

export interface PlannedSegment {
  /** The segment's name in the playlist as it is. */
  from: string;
  /** Its name under the new key. */
  to: string;
  /** The key it is sealed with now; null when it is in the clear. */
  current: SegmentKey | null;
  /** Its IV under the new key. */
  iv: Buffer;
}

export interface PlaylistPlan {
  /** The media playlist naming the new names under the new key. */
  text: string;
  segments: PlannedSegment[];
}

/** `720p_004-0123456789abcdef.ts` → `720p_004.ts`: a segment's name without a key's id. */
const plainName = (name: string) => name.replace(/-[0-9a-f]{16}(\.[A-Za-z0-9]+)$/, '$1');

/**
 * Plans a media playlist under the key `keyId`: every segment renamed for that key, the old EXT-X-KEY lines
 * (AES-128 with keys of this site, or none) replaced by one before the first segment. Throws on what it cannot
 * re-key: byte ranges, an initialisation section, another method, a key of elsewhere, a URI outside the folder.
 */
export function planPlaylist(playlist: string, keyId: string): PlaylistPlan {
  if (!KEY_ID.test(keyId)) throw new Error(`${keyId} is not a key id`);
  const out: string[] = [];
  const segments: PlannedSegment[] = [];
  let sequence = 0;
  let current: { keyId: string; iv?: Buffer } | null = null;
  let keyWritten = false;
  for (const raw of playlist.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) sequence = Number.parseInt(line.slice('#EXT-X-MEDIA-SEQUENCE:'.length), 10);
    if (/^#EXT-X-(?:BYTERANGE|MAP)\b/.test(line)) throw new Error('byte ranges and initialisation sections are not re-keyed here');
    if (line.startsWith('#EXT-X-KEY:')) {
      const method = attributeValue(line, 'METHOD');
      if (method === 'NONE') current = null;
      else {
        const match = method === 'AES-128' ? KEY_FILE.exec(attributeValue(line, 'URI') ?? '') : null;
        if (!match) throw new Error(`a key this site did not make: ${line}`);
        const iv = attributeValue(line, 'IV');
        current = { keyId: match[1], iv: iv ? Buffer.from(iv.replace(/^0x/i, '').padStart(32, '0'), 'hex') : undefined };
      }
      continue;
    }
    if (line === '' || line.startsWith('#')) {
      out.push(raw);
      continue;
    }
    if (line.includes('/') || line.includes('?')) throw new Error(`${line} is not a file of the playlist's folder`);
    if (!keyWritten) {
      // Before the segment's EXTINF (and any tag that belongs to it), after the playlist's header.
      let at = out.length;
      while (at > 0 && /^#EXT(?:INF|-X-DISCONTINUITY|-X-PROGRAM-DATE-TIME)\b/.test(out[at - 1].trim())) at--;
      out.splice(at, 0, `#EXT-X-KEY:METHOD=AES-128,URI="${keyId}.key"`);
      keyWritten = true;
    }
    const to = plainName(line).replace(/(\.[A-Za-z0-9]+)$/, `-${keyId}$1`);
    segments.push({
      from: line,
      to,
      current: current && { keyId: current.keyId, iv: current.iv ?? sequenceIv(sequence) },
      iv: sequenceIv(sequence),
    });
    out.push(to);
    sequence++;
  }
  return { text: out.join('\n'), segments };
}

/** Key ids a media playlist names (the ones its segments need). */
export function keyIdsOf(playlist: string): string[] {
  const ids = new Set<string>();
  for (const line of playlist.split(/\r?\n/)) {
    if (!line.startsWith('#EXT-X-KEY:')) continue;
    const match = KEY_FILE.exec(attributeValue(line, 'URI') ?? '');
    if (match) ids.add(match[1]);
  }
  return [...ids];
}

/** A folder of HLS files by name: the ingest's workspace, or a video's objects in the store. */
export interface SealableFolder {
  readText(name: string): Promise<string>;
  readBytes(name: string): Promise<Buffer>;
  write(name: string, body: Buffer | string): Promise<void>;
}

export interface SealedRenditions {
  /** Segment files the new playlists no longer name (the clear or old-key copies), for the caller to remove. */
  replaced: string[];
  /** Keys the old playlists named. */
  oldKeyIds: string[];
  /** Segments sealed. */
  segments: number;
}

/**
 * Seals every segment of the media playlists `playlists` (names in `folder`) under `next`: each is read, opened
 * with its old key when it has one (`keyOf`), encrypted under the new key with its sequence IV and written under
 * its new name; each playlist is written after all of its segments, so a reader never meets a name not yet there.
 * The master playlist is not touched: its variant URIs do not change. One segment in memory at a time.
 */
export async function sealRenditions(
  folder: SealableFolder,
  playlists: string[],
  next: { keyId: string; key: Buffer },
  keyOf: (keyId: string) => Promise<Buffer>,
): Promise<SealedRenditions> {
  const replaced = new Set<string>();
  const oldKeyIds = new Set<string>();
  let segments = 0;
  for (const name of playlists) {
    const text = await folder.readText(name);
    for (const id of keyIdsOf(text)) oldKeyIds.add(id);
    const plan = planPlaylist(text, next.keyId);
    for (const segment of plan.segments) {
      const stored = await folder.readBytes(segment.from);
      const plain = segment.current ? decryptSegment(stored, await keyOf(segment.current.keyId), segment.current.iv) : stored;
      await folder.write(segment.to, encryptSegment(plain, next.key, segment.iv));
      if (segment.from !== segment.to) replaced.add(segment.from);
      segments++;
    }
    await folder.write(name, plan.text);
  }
  return { replaced: [...replaced], oldKeyIds: [...oldKeyIds].filter((id) => id !== next.keyId), segments };
}
