import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { createRedisConnection } from '../redis/redis-connection';

import { type CachedEvictions, type ChangeEvent, isChangeEvent } from './change-events';

/** How long `onModuleInit` waits for the subscription before the API starts with its caches passed through. */
const SUBSCRIBE_WAIT_MS = 2000;

/**
 * The one way a change reaches the caches (docs/operating.md › Caches › "Change events"): the owner of what
 * changed publishes a typed ChangeEvent once; every cache declares, with `declareCache`, the events that evict
 * it and how. An event is delivered to this process's caches synchronously and, with REDIS_URL, published on a
 * Redis channel that every API process and the worker subscribe to (pub/sub: nothing is stored, a process that
 * is not listening misses the message). That is why `live` is false while the subscription is down: the caches
 * then pass every read through to the database, and start empty (`CachesCleared`) when it is back. Without
 * REDIS_URL there is one process and the bus is always live. Nothing else clears a cache
 * (architecture.spec.ts checks it).
 */
@Injectable()
export class InvalidationBus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(InvalidationBus.name);
  private readonly origin = randomUUID();
  private readonly caches: { name: string; evictions: CachedEvictions }[] = [];
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

  /** A cache of this process and the events that evict it: each handler drops what the event makes wrong. */
  declareCache(name: string, evictions: CachedEvictions): void {
    this.caches.push({ name, evictions });
  }

  /** Announces a change: delivered here at once, then to the other processes. Only the owner of what changed calls it. */
  publish(message: ChangeEvent): void {
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
        const { origin, message } = JSON.parse(raw) as { origin: string; message: unknown };
        if (origin === this.origin) return;
        // Unreadable, or from a version that announces differently (a rolling deploy): forget everything rather than guess.
        this.deliver(isChangeEvent(message) ? message : { type: 'CachesCleared', reason: 'missed' });
      } catch {
        this.deliver({ type: 'CachesCleared', reason: 'missed' });
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
    this.deliver({ type: 'CachesCleared', reason: 'missed' });
    this.subscribed = true;
    this.markFirstSubscription();
    if (this.everLost) this.logger.log('Catalogue changes reach this process again; caches start empty');
  }

  private lost(): void {
    if (!this.subscribed) return;
    this.subscribed = false;
    this.deliver({ type: 'CachesCleared', reason: 'missed' });
    if (!this.closing) {
      this.everLost = true;
      this.logger.warn('Lost the catalogue change channel (Redis): caches pass reads through to the database until it is back');
    }
  }

  private deliver(event: ChangeEvent): void {
    for (const { evictions } of this.caches) {
      const evict = evictions[event.type] as ((event: ChangeEvent) => void) | undefined;
      evict?.(event);
    }
  }
}

/** The bus, one per process, for every module (the catalogue's owners publish, caches anywhere declare). */
@Global()
@Module({ providers: [InvalidationBus], exports: [InvalidationBus] })
export class ChangeBusModule {}
