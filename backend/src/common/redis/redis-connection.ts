import Redis from 'ioredis';

/**
 * An ioredis connection that fails fast once Redis goes away, so that callers fall back to the process instead
 * of making requests wait: commands queue only until the first connection is ready (a process starting beside
 * Redis must not lose its first increments); after that a command sent while the connection is down fails at
 * once, and one that Redis does not answer fails after a second.
 */
export function createRedisConnection(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, commandTimeout: 1000 });
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = false;
  });
  // Connection errors repeat at every reconnection attempt; the callers' fallbacks log an outage once.
  redis.on('error', () => undefined);
  return redis;
}
