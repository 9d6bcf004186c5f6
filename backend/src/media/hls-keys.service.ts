import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { touches } from '../common/cache/change-events';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { KEY_ID, keyEncryptionKey, newKey, newKeyId, unwrapKey, wrapKey } from './hls-encryption';

/** How many keys the process keeps opened, and for how long (a removed video's key is forgotten by then). */
const KEPT_KEYS = 10_000;
const KEPT_KEY_MS = 10 * 60_000;

export interface HlsKey {
  keyId: string;
  key: Buffer;
}

/**
 * The videos' HLS keys (`hls_keys`): made at ingest or re-key, kept wrapped under a key derived from the install's
 * secret (HLS_KEY_SECRET, or JWT_SECRET), never written to the media store. A key is found by its folder (stem)
 * and id, as its URI in the playlist names it. Opened keys are kept in memory for at most ten minutes (a key
 * never changes under its id), and forgotten at once when a video is removed or unpublished.
 */
@Injectable()
export class HlsKeysService {
  private readonly kek: Buffer;
  private readonly opened = new LRUCache<string, Buffer>({ max: KEPT_KEYS, ttl: KEPT_KEY_MS });

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'hlsKeySecret'>,
    bus: InvalidationBus,
  ) {
    this.kek = keyEncryptionKey(config.hlsKeySecret);
    // A video removed or moved, here or in another process: its keys' rows are gone (ON DELETE CASCADE), and
    // no key of it may be answered from memory. Keys are by folder, not by video: rare enough to start over.
    bus.declareCache('media: opened HLS keys', {
      VideoChanged: (event) => {
        if (touches(event, 'url', 'status')) this.opened.clear();
      },
    });
  }

  /** A new key for the video's folder, stored before any segment sealed with it is published. */
  async create(videoId: number, stem: string): Promise<HlsKey> {
    const keyId = newKeyId();
    const key = newKey();
    await this.db.query('INSERT INTO hls_keys (stem, key_id, video_id, wrapped) VALUES ($1, $2, $3, $4)', [stem, keyId, videoId, wrapKey(this.kek, key, stem, keyId)]);
    return { keyId, key };
  }

  /** The key `keyId` of the folder, or null when there is none (another folder's, removed, or retired and swept). */
  async find(stem: string, keyId: string): Promise<Buffer | null> {
    if (!KEY_ID.test(keyId)) return null;
    const id = `${stem}/${keyId}`;
    const kept = this.opened.get(id);
    if (kept) return kept;
    const rows: { wrapped: Buffer }[] = await this.db.query('SELECT wrapped FROM hls_keys WHERE stem = $1 AND key_id = $2', [stem, keyId]);
    if (rows.length === 0) return null;
    const key = unwrapKey(this.kek, Buffer.from(rows[0].wrapped), stem, keyId);
    this.opened.set(id, key);
    return key;
  }

  /** Like `find`, for a key that must be there (a re-key reading the segments it replaces). */
  async get(stem: string, keyId: string): Promise<Buffer> {
    const key = await this.find(stem, keyId);
    if (!key) throw new Error(`videos/${stem}: key ${keyId} is not in the database`);
    return key;
  }

  /** Removes the folder's keys but `keep` (null: all), once no published segment needs them. */
  async removeOthers(stem: string, keep: string | null): Promise<void> {
    await this.db.query('DELETE FROM hls_keys WHERE stem = $1 AND key_id IS DISTINCT FROM $2', [stem, keep]);
    for (const id of [...this.opened.keys()]) if (id.startsWith(`${stem}/`) && id !== `${stem}/${keep}`) this.opened.delete(id);
  }

  /**
   * Marks the folder's keys but `keep` retired now (when, for whoever reads the table): still answered for the
   * links already given, until the re-key's `hls-sweep` job removes them.
   */
  async retireOthers(stem: string, keep: string): Promise<void> {
    await this.db.query('UPDATE hls_keys SET retired_at = now() WHERE stem = $1 AND key_id <> $2 AND retired_at IS NULL', [stem, keep]);
  }

  async remove(stem: string, keyId: string): Promise<void> {
    await this.db.query('DELETE FROM hls_keys WHERE stem = $1 AND key_id = $2', [stem, keyId]);
    this.opened.delete(`${stem}/${keyId}`);
  }
}
