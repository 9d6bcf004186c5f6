import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { LRUCache } from 'lru-cache';
import { RedisFallback } from './redis-fallback';
import { INCREMENT_IN_WINDOW } from './redis-throttler-storage';

/** A key's count in its window, and how long the window has left. */
export interface WindowCount {
  count: number;
  msLeft: number;
}

/** Keys counted at most in one process (a few dozen bytes each); past it the least recently used go. */
export const WINDOW_COUNTS_MAX_KEYS = 100_000;

const READ = `return { tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1]) }`;

/**
 * Counts of events per key over a fixed window that starts at the key's first event, which can be read without
 * counting (unlike the rate limiter's storage): "how many failed sign-ins has this account had?" before
 * checking a password, and counted only when it fails. In Redis with REDIS_URL, so that every API process sees
 * one count; in a bounded LRU otherwise, and while Redis is down (counts then hold per process, not at all).
 */
export class WindowCounts {
  private readonly local = new LRUCache<string, { count: number; until: number }>({ max: WINDOW_COUNTS_MAX_KEYS });
  private readonly redisOrLocal = new RedisFallback(new Logger('WindowCounts'), 'counting in this process until it does');

  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
  ) {}

  async read(key: string): Promise<WindowCount> {
    const reply = await this.remote<[number, number]>((redis) => redis.eval(READ, 1, this.prefix + key) as Promise<[number, number]>);
    if (reply) return { count: reply[1] > 0 ? reply[0] : 0, msLeft: Math.max(0, reply[1]) };
    const kept = this.fresh(key);
    return kept ? { count: kept.count, msLeft: kept.until - Date.now() } : { count: 0, msLeft: 0 };
  }

  async add(key: string, windowMs: number): Promise<WindowCount> {
    const reply = await this.remote<[number, number]>((redis) => redis.eval(INCREMENT_IN_WINDOW, 1, this.prefix + key, windowMs) as Promise<[number, number]>);
    if (reply) return { count: reply[0], msLeft: reply[1] };
    const kept = this.fresh(key) ?? { count: 0, until: Date.now() + windowMs };
    kept.count++;
    this.local.set(key, kept, { ttl: Math.max(1, kept.until - Date.now()) });
    return { count: kept.count, msLeft: kept.until - Date.now() };
  }

  async clear(key: string): Promise<void> {
    this.local.delete(key);
    await this.remote((redis) => redis.del(this.prefix + key));
  }

  private fresh(key: string) {
    const kept = this.local.get(key);
    return kept && kept.until > Date.now() ? kept : undefined;
  }

  /** Redis's answer, or undefined to count in the process (no Redis, or Redis down). */
  private async remote<T>(call: (redis: Redis) => Promise<T>): Promise<T | undefined> {
    const redis = this.redis;
    return redis ? this.redisOrLocal.run(() => call(redis), () => undefined) : undefined;
  }
}
