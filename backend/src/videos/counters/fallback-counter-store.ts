import { Logger } from '@nestjs/common';
import { RedisFallback } from '../../common/redis/redis-fallback';
import type { BatchWrite, CounterDelta, CounterField, CounterStore, PendingCounts } from './counter-store';
import { MemoryCounterStore } from './memory-counter-store';

/**
 * The shared store (Redis) with the process as its fallback: while Redis does not answer, counted events and
 * dedupe marks go to an in-process store instead of failing the request, and the process's own flush writes them
 * to the database; the counts waiting in Redis stay there until it is back and a flush (any process's) takes
 * them. Nothing is dropped. During the outage dedupe works per process only (a viewer behind two API processes
 * could be counted twice) and reads show the process's buffer without Redis's: both end when Redis answers.
 */
export class FallbackCounterStore implements CounterStore {
  private readonly redis = new RedisFallback(new Logger('Counters'), 'counting in this process until it does', 'counting there');

  constructor(
    private readonly shared: CounterStore,
    private readonly local: CounterStore = new MemoryCounterStore(),
  ) {}

  /** Whether the last call to the shared store failed. */
  get degraded(): boolean {
    return this.redis.degraded;
  }

  markOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.either((s) => s.markOnce(key, ttlMs));
  }

  unmark(key: string): Promise<void> {
    return this.either((s) => s.unmark(key));
  }

  increment(videoId: number, field: CounterField, by?: number): Promise<void> {
    return this.either((s) => s.increment(videoId, field, by));
  }

  countOnce(key: string, ttlMs: number, videoId: number, field: CounterField): Promise<boolean> {
    return this.either((s) => s.countOnce(key, ttlMs, videoId, field));
  }

  async pending(videoIds: number[]): Promise<PendingCounts> {
    const [shared, local] = await Promise.all([this.tryShared((s) => s.pending(videoIds), new Map() as PendingCounts), this.local.pending(videoIds)]);
    for (const [id, counts] of local) {
      const s = shared.get(id);
      shared.set(id, s ? { views: s.views + counts.views, likes: s.likes + counts.likes } : counts);
    }
    return shared;
  }

  async drain(write: BatchWrite, written?: (deltas: CounterDelta[]) => void): Promise<number> {
    // The process's own counts first: they need nothing but the database.
    const local = await this.local.drain(write, written);
    // The database's failure goes past the fallback wrapped: down or not, it says nothing about Redis (taken for
    // Redis down, it was swallowed and moved the counting into the process at every flush of a database outage).
    const shared = await this.tryShared(
      (s) => s.drain((deltas, batch) => Promise.resolve(write(deltas, batch)).catch((error: unknown) => Promise.reject(new WriteFailed(error))), written),
      0,
    ).catch((error: unknown) => Promise.reject(error instanceof WriteFailed ? error.failure : error));
    return local + shared;
  }

  async buffered(): Promise<number> {
    return (await this.local.buffered()) + (await this.tryShared((s) => s.buffered(), 0));
  }

  async close(): Promise<void> {
    await Promise.all([this.shared.close(), this.local.close()]);
  }

  /** `op` on the shared store, or, while it is down, on the local one. */
  private either<T>(op: (store: CounterStore) => Promise<T>): Promise<T> {
    return this.onShared(op, () => op(this.local));
  }

  /** `op` on the shared store, or `fallback` while it is down. */
  private tryShared<T>(op: (store: CounterStore) => Promise<T>, fallback: T): Promise<T> {
    return this.onShared(op, async () => fallback);
  }

  private onShared<T>(op: (store: CounterStore) => Promise<T>, whileDown: () => Promise<T>): Promise<T> {
    return this.redis.run(() => op(this.shared), whileDown);
  }
}

/** The database write's own failure, carried through the Redis fallback, which would take a refused connection for Redis's. */
class WriteFailed extends Error {
  constructor(readonly failure: unknown) {
    super('The counts could not be written');
  }
}
