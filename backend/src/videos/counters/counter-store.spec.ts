import { randomUUID } from 'node:crypto';
import type { CounterDelta, CounterStore } from './counter-store';
import { MemoryCounterStore } from './memory-counter-store';
import { RedisCounterStore } from './redis-counter-store';

const stores: [string, () => CounterStore][] = [['MemoryCounterStore', () => new MemoryCounterStore()]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  stores.push(['RedisCounterStore', () => new RedisCounterStore(url, `test-${randomUUID().slice(0, 8)}:counters:`)]);
}

describe.each(stores)('%s', (_name, make) => {
  let store: CounterStore;

  beforeEach(() => {
    store = make();
  });
  afterEach(async () => {
    if (store instanceof RedisCounterStore) await store.reset();
    await store.close();
  });

  it('marks a key once until it expires', async () => {
    expect(await store.markOnce('k', 200)).toBe(true);
    expect(await store.markOnce('k', 200)).toBe(false);
    await store.unmark('k');
    expect(await store.markOnce('k', 50)).toBe(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.markOnce('k', 50)).toBe(true);
  });

  it('drains every pending count once, per video and field', async () => {
    await store.increment(1, 'views');
    await store.increment(1, 'views');
    await store.increment(1, 'likes');
    await store.increment(2, 'trending', 3);
    expect(await store.pending([1, 2, 3])).toEqual(new Map([[1, { views: 2, likes: 1 }]]));
    const written: CounterDelta[] = [];
    expect(await store.drain(async (d) => void written.push(...d))).toBe(2);
    expect(written.sort((a, b) => a.videoId - b.videoId)).toEqual([
      { videoId: 1, views: 2, likes: 1, trending: 0 },
      { videoId: 2, views: 0, likes: 0, trending: 3 },
    ]);
    expect(await store.pending([1, 2])).toEqual(new Map());
    expect(await store.drain(async () => undefined)).toBe(0);
  });

  it('keeps counts visible while they are written, and keeps increments made meanwhile', async () => {
    await store.increment(7, 'views', 5);
    let seenDuringWrite: unknown;
    await store.drain(async () => {
      await store.increment(7, 'views');
      seenDuringWrite = await store.pending([7]);
    });
    expect(seenDuringWrite).toEqual(new Map([[7, { views: 6, likes: 0 }]]));
    expect(await store.pending([7])).toEqual(new Map([[7, { views: 1, likes: 0 }]]));
  });

  it('puts the counts back when the write fails, so the next flush writes them', async () => {
    await store.increment(9, 'views', 4);
    await expect(store.drain(async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await store.pending([9])).toEqual(new Map([[9, { views: 4, likes: 0 }]]));
    const written: CounterDelta[] = [];
    await store.drain(async (d) => void written.push(...d));
    expect(written).toEqual([{ videoId: 9, views: 4, likes: 0, trending: 0 }]);
  });
});
