import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import type { KeyvStoreAdapter, StoredData } from 'keyv';

/**
 * The response and query caches in Redis, for Keyv (and so for Nest's cache manager), so that every API
 * process reads the same cached listings and an admin's clear-cache or an edit empties them for all. Values
 * arrive serialized by Keyv; keys live under `prefix`, which `clear` empties with SCAN + UNLINK (never
 * FLUSHDB: the database may hold other things). The connection belongs to RedisModule, which closes it.
 */
export class RedisCacheStore extends EventEmitter implements KeyvStoreAdapter {
  readonly opts = { dialect: 'redis' };
  namespace?: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    super();
  }

  async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
    return ((await this.redis.get(this.prefix + key)) ?? undefined) as StoredData<Value> | undefined;
  }

  async set(key: string, value: unknown, ttl?: number): Promise<void> {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (ttl && ttl > 0) await this.redis.set(this.prefix + key, text, 'PX', Math.ceil(ttl));
    else await this.redis.set(this.prefix + key, text);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.unlink(this.prefix + key)) > 0;
  }

  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async disconnect(): Promise<void> {
    // The shared connection is closed by RedisModule when the application shuts down.
  }
}
