import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { createRedisConnection } from '../redis/redis-connection';

/** What changed, as the owners of the catalogue's tables announce it. */
export type Invalidation =
  /** Videos edited, published, failed, deleted, or their categories or performers changed. */
  | { kind: 'videos'; ids: number[] }
  /** A counter flush wrote these counts: [video id, views added, likes added] (0, 0 when only its trending score). */
  | { kind: 'counts'; deltas: [number, number, number][] }
  /** Trending scores were recomputed. */
  | { kind: 'ranking' }
  /** A category or performer was created or renamed. */
  | { kind: 'taxa' }
  /** Everything (an admin's clear-cache, or messages may have been missed). */
  | { kind: 'all' };

/** How long `onModuleInit` waits for the subscription before the API starts with its caches passed through. */
const SUBSCRIBE_WAIT_MS = 2000;

/**
 * Tells every process of the deployment what the catalogue's owners changed, so that the in-memory caches
 * drop it at once: delivered to this process's listeners synchronously, and with REDIS_URL published on a
 * Redis channel that every API process and the worker subscribe to (pub/sub: nothing is stored, a process
 * that is not listening misses the message). That is why `live` is false while the subscription is down:
 * the caches then pass every read through to the database, and start empty when it is back. Without
 * REDIS_URL there is one process and the bus is always live.
 */
@Injectable()
export class InvalidationBus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(InvalidationBus.name);
  private readonly origin = randomUUID();
  private readonly listeners: ((message: Invalidation) => void)[] = [];
  private readonly channel: string;
  private publisher?: Redis;
  private subscriber?: Redis;
  private subscribed = false;
  private closing = false;
  private everLost = false;
  private markFirstSubscription!: () => void;
  private readonly firstSubscription = new Promise<void>((resolve) => (this.markFirstSubscription = resolve));

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.channel = `${config.redisPrefix}invalidate`;
  }

  /** True while every change made anywhere reaches this process. */
  get live(): boolean {
    return !this.config.redisUrl || this.subscribed;
  }

  listen(listener: (message: Invalidation) => void): void {
    this.listeners.push(listener);
  }

  /** Delivers the message here at once, then to the other processes. */
  publish(message: Invalidation): void {
    this.deliver(message);
    if (!this.publisher) return;
    this.publisher.publish(this.channel, JSON.stringify({ origin: this.origin, message })).catch((error: unknown) => {
      // The others' subscriptions are down too, most likely (one Redis): they pass reads through until it is back.
      this.logger.warn(`Could not announce a catalogue change to the other processes: ${String(error)}`);
    });
  }

  async onModuleInit(): Promise<void> {
    const url = this.config.redisUrl;
    if (!url) return;
    this.publisher = createRedisConnection(url);
    const subscriber = new Redis(url, { maxRetriesPerRequest: null, autoResubscribe: false });
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined); // reconnection attempts repeat it; 'close' is what matters
    subscriber.on('close', () => this.lost());
    subscriber.on('ready', () => void this.subscribe());
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      try {
        const { origin, message } = JSON.parse(raw) as { origin: string; message: Invalidation };
        if (origin !== this.origin) this.deliver(message);
      } catch {
        this.deliver({ kind: 'all' }); // unreadable: forget everything rather than guess
      }
    });
    await Promise.race([this.firstSubscription, new Promise((r) => setTimeout(r, SUBSCRIBE_WAIT_MS).unref())]);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.all([this.publisher, this.subscriber].map((c) => c?.quit().catch(() => c.disconnect())));
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber!.subscribe(this.channel);
    } catch {
      return; // the connection went again; 'ready' comes back with it
    }
    if (this.subscribed) return;
    // Whatever was cached before the gap may have missed a change.
    this.deliver({ kind: 'all' });
    this.subscribed = true;
    this.markFirstSubscription();
    if (this.everLost) this.logger.log('Catalogue changes reach this process again; caches start empty');
  }

  private lost(): void {
    if (!this.subscribed) return;
    this.subscribed = false;
    this.deliver({ kind: 'all' });
    if (!this.closing) {
      this.everLost = true;
      this.logger.warn('Lost the catalogue change channel (Redis): caches pass reads through to the database until it is back');
    }
  }

  private deliver(message: Invalidation): void {
    for (const listener of this.listeners) listener(message);
  }
}
