import { createClient, createKeyv } from '@keyv/redis';
// The cache module's types are keyv's ESM declarations; @keyv/redis's CommonJS build names the CJS ones.
import type { Keyv } from 'keyv' with { 'resolution-mode': 'import' };

/**
 * The response and query caches in Redis (the maintained `@keyv/redis` adapter), so that every API process
 * reads the same cached listings and an edit or an admin's clear-cache empties them for all. Keys are
 * `${namespace}:${key}`; `clear` SCANs and UNLINKs `${namespace}:*` only, never FLUSHDB, because the database
 * also holds counters and rate limits.
 *
 * Built as a whole Keyv instance on purpose: handed over as a bare store, Nest's cache module wraps it in a
 * Keyv that resets the store's namespace to undefined, and `clear` then deletes every key in the database
 * without "::" (counters and rate limits included). The client is node-redis (what the adapter speaks); its
 * command timeout and the disabled offline queue make a Redis outage a cache miss (at once while the connection is
 * down, after a second when Redis hangs) instead of a request that waits for the reconnection. The cache manager closes the connection when the application shuts down.
 */
export function createRedisCache(url: string, namespace: string): Keyv {
  const client = createClient({ url, disableOfflineQueue: true, commandOptions: { timeout: 1000 } });
  return createKeyv(client, { namespace, keyPrefixSeparator: ':' }) as unknown as Keyv;
}
