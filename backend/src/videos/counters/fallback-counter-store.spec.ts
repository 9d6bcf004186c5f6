import type { BatchWrite, CounterDelta, CounterStore } from './counter-store';
import { FallbackCounterStore } from './fallback-counter-store';
import { MemoryCounterStore } from './memory-counter-store';

/** A shared store that can be switched off; its failures are what ioredis throws while Redis is unreachable. */
class SwitchableStore extends MemoryCounterStore {
  down = false;
  private check() {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
  }
  override async markOnce(key: string, ttlMs: number) { this.check(); return super.markOnce(key, ttlMs); }
  override async increment(...args: Parameters<CounterStore['increment']>) { this.check(); return super.increment(...args); }
  override async pending(ids: number[]) { this.check(); return super.pending(ids); }
  override async drain(write: BatchWrite) { this.check(); return super.drain(write); }
}

describe('FallbackCounterStore', () => {
  let shared: SwitchableStore;
  let store: FallbackCounterStore;
  const written: CounterDelta[] = [];
  const write = async (d: CounterDelta[]) => void written.push(...d);
  const total = (field: 'views' | 'likes' | 'trending') => written.reduce((n, d) => n + d[field], 0);

  beforeEach(() => {
    written.length = 0;
    shared = new SwitchableStore();
    store = new FallbackCounterStore(shared);
  });
  afterEach(() => store.close());

  it('counts in the process while the shared store is down, and loses nothing once it is back', async () => {
    await store.increment(1, 'views');
    shared.down = true;
    await store.increment(1, 'views');
    await store.increment(1, 'likes');
    expect(store.degraded).toBe(true);
    expect(await store.pending([1])).toEqual(new Map([[1, { views: 1, likes: 1 }]])); // what is reachable
    expect(await store.drain(write)).toBe(1); // the process's counts, written without the shared store
    expect(total('views')).toBe(1);

    shared.down = false;
    expect(await store.pending([1])).toEqual(new Map([[1, { views: 1, likes: 0 }]]));
    await store.drain(write);
    expect(store.degraded).toBe(false);
    expect({ views: total('views'), likes: total('likes') }).toEqual({ views: 2, likes: 1 });
  });

  it('dedupes in the process during the outage', async () => {
    shared.down = true;
    expect(await store.markOnce('view:1:a', 60_000)).toBe(true);
    expect(await store.markOnce('view:1:a', 60_000)).toBe(false);
  });

  it('keeps the counts when the database refuses the flush', async () => {
    shared.down = true;
    await store.increment(2, 'trending', 3);
    await expect(store.drain(async () => { throw new Error('database down'); })).rejects.toThrow('database down');
    await store.drain(write);
    expect(total('trending')).toBe(3);
  });

  it('takes the database refusing a flush of the shared store for what it is, not for Redis being down', async () => {
    await store.increment(3, 'views', 2);
    const databaseDown = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await expect(store.drain(async () => { throw databaseDown; })).rejects.toBe(databaseDown);
    expect(store.degraded).toBe(false); // Redis answered all along: counting stays shared
    expect(await store.pending([3])).toEqual(new Map([[3, { views: 2, likes: 0 }]]));
    await store.drain(write);
    expect(total('views')).toBe(2);
  });

  it('does not hide a bug behind the fallback', async () => {
    const broken = new FallbackCounterStore({ ...new MemoryCounterStore(), increment: async () => { throw new TypeError('bug'); } } as unknown as CounterStore);
    await expect(broken.increment(1, 'views')).rejects.toThrow('bug');
  });
});
