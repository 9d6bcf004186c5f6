import { randomUUID } from 'node:crypto';
import { TcpProxy } from '../../../test/helpers/tcp-proxy';
import { isDependencyDown } from '../../common/errors/dependency-errors';
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

  it('counts once per key while its mark lasts, mark and count together', async () => {
    expect(await store.countOnce('view:3:a', 200, 3, 'views')).toBe(true);
    expect(await store.countOnce('view:3:a', 200, 3, 'views')).toBe(false);
    expect(await store.countOnce('view:3:b', 200, 3, 'views')).toBe(true);
    expect(await store.countOnce('trend:3:a', 200, 3, 'trending')).toBe(true);
    // The mark is the one markOnce sets: a key counted is a key marked.
    expect(await store.markOnce('view:3:a', 200)).toBe(false);
    expect(await store.pending([3])).toEqual(new Map([[3, { views: 2, likes: 0 }]]));
    const written: CounterDelta[] = [];
    await store.drain(async (d) => void written.push(...d));
    expect(written).toEqual([{ videoId: 3, views: 2, likes: 0, trending: 1 }]);
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

  it('writes a batch whose write failed again, whole and under the same id, as well as what came after it', async () => {
    await store.increment(9, 'views', 4);
    const tried: string[] = [];
    await expect(store.drain(async (_d, batch) => { tried.push(batch); throw new Error('commit answer lost'); })).rejects.toThrow('commit answer lost');
    await store.increment(9, 'views');
    expect(await store.pending([9])).toEqual(new Map([[9, { views: 5, likes: 0 }]]));
    const calls: [CounterDelta[], string][] = [];
    expect(await store.drain(async (d, batch) => void calls.push([d, batch]))).toBe(2);
    // The failed batch again, as it was and under its id (the database adds an id once); the new view on its own.
    expect(calls.find(([, batch]) => batch === tried[0])?.[0]).toEqual([{ videoId: 9, views: 4, likes: 0, trending: 0 }]);
    expect(calls.filter(([, batch]) => batch !== tried[0]).map(([d]) => d)).toEqual([[{ videoId: 9, views: 1, likes: 0, trending: 0 }]]);
    expect(await store.pending([9])).toEqual(new Map());
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

// With TEST_REDIS_URL (CI sets it), as the suites above.
if (process.env.TEST_REDIS_URL) {
  describe('RedisCounterStore when the connection goes midway', () => {
    const url = process.env.TEST_REDIS_URL as string;

    // pipeline.exec() answers each command's failure in its place and resolves: a read of the counts that lost
    // Redis between its two round trips must fail as Redis being down (the fallback store takes over), not as a
    // bug (a 500 for the view that asked, seen once in CI's stack test while Redis restarted).
    it('fails as Redis being down when the connection is reset between the batches and their counts', async () => {
      const proxy = await TcpProxy.to(url);
      const store = new RedisCounterStore(proxy.url(url), `test-${randomUUID().slice(0, 8)}:counters:`);
      try {
        await store.increment(4, 'views');
        const connection = (store as unknown as { redis: { smembers: (key: string) => Promise<string[]> } }).redis;
        const smembers = connection.smembers.bind(connection);
        connection.smembers = async (key) => {
          const members = await smembers(key);
          await proxy.cut();
          return members;
        };
        const error = await store.pending([4]).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        expect(isDependencyDown(error)).toBe(true);
      } finally {
        await proxy.restore();
        await store.close();
        await proxy.close();
      }
    });

    it('writes a batch again under its id when Redis went away between its write and its removal', async () => {
      const proxy = await TcpProxy.to(url);
      const prefix = `test-${randomUUID().slice(0, 8)}:counters:`;
      const store = new RedisCounterStore(proxy.url(url), prefix);
      const direct = new RedisCounterStore(url, prefix);
      try {
        await store.increment(6, 'views', 3);
        const calls: [CounterDelta[], string][] = [];
        // The write commits, then Redis goes away before the batch leaves it.
        await expect(store.drain(async (d, batch) => { calls.push([d, batch]); await proxy.cut(); })).rejects.toSatisfy(isDependencyDown);
        await proxy.restore();
        // Still counted once in what reads see, and taken by no other flush while its claim lasts (60 s).
        expect(await direct.pending([6])).toEqual(new Map([[6, { views: 3, likes: 0 }]]));
        expect(await direct.drain(async (d, batch) => void calls.push([d, batch]))).toBe(0);
        // Once the claim has expired: the same batch, under the same id.
        const connection = (direct as unknown as { redis: { del: (key: string) => Promise<number> } }).redis;
        await connection.del(`${calls[0][1]}:claim`);
        expect(await direct.drain(async (d, batch) => void calls.push([d, batch]))).toBe(1);
        expect(calls.map(([d, batch]) => [d, batch])).toEqual([
          [[{ videoId: 6, views: 3, likes: 0, trending: 0 }], calls[0][1]],
          [[{ videoId: 6, views: 3, likes: 0, trending: 0 }], calls[0][1]],
        ]);
        expect(await direct.pending([6])).toEqual(new Map());
      } finally {
        await direct.reset();
        await Promise.all([store.close(), direct.close()]);
        await proxy.close();
      }
    });

    it("fails with Redis's own error when a batch is not a hash, not with a TypeError of its reading", async () => {
      const prefix = `test-${randomUUID().slice(0, 8)}:counters:`;
      const store = new RedisCounterStore(url, prefix);
      try {
        const connection = (store as unknown as { redis: { sadd: (k: string, m: string) => Promise<number>; set: (k: string, v: string) => Promise<string> } }).redis;
        await connection.set(`${prefix}batch:odd`, 'not a hash');
        await connection.sadd(`${prefix}batches`, `${prefix}batch:odd`);
        await expect(store.pending([4])).rejects.toThrow(/WRONGTYPE/);
      } finally {
        await store.reset();
        await store.close();
      }
    });
  });
}

describe('MemoryCounterStore bounds', () => {
  it('keeps at most its bound of dedupe marks, forgetting the oldest first', async () => {
    let now = 1_000_000;
    const store = new MemoryCounterStore(() => now, 100);
    for (let i = 0; i < 1000; i++) {
      expect(await store.markOnce(`view:${i}`, 3_600_000)).toBe(true);
      expect(store.markCount).toBeLessThanOrEqual(100);
      now++;
    }
    // The newest are still marked; the first were forgotten to make room.
    expect(await store.markOnce('view:999', 3_600_000)).toBe(false);
    expect(await store.markOnce('view:950', 3_600_000)).toBe(false);
    expect(await store.markOnce('view:0', 3_600_000)).toBe(true);
    await store.close();
  });

  it('makes room by dropping expired marks before live ones', async () => {
    let now = 1_000_000;
    const store = new MemoryCounterStore(() => now, 100);
    for (let i = 0; i < 50; i++) await store.markOnce(`short:${i}`, 1000);
    for (let i = 0; i < 50; i++) await store.markOnce(`long:${i}`, 3_600_000);
    now += 2000;
    expect(await store.markOnce('new', 3_600_000)).toBe(true);
    expect(store.markCount).toBe(51);
    for (let i = 0; i < 50; i++) expect(await store.markOnce(`long:${i}`, 3_600_000)).toBe(false);
    await store.close();
  });

  it('renews an expired mark at the end of the line', async () => {
    let now = 1_000_000;
    const store = new MemoryCounterStore(() => now, 10);
    await store.markOnce('again', 1000);
    for (let i = 0; i < 5; i++) await store.markOnce(`other:${i}`, 3_600_000);
    now += 2000;
    expect(await store.markOnce('again', 3_600_000)).toBe(true);
    for (let i = 5; i < 9; i++) await store.markOnce(`other:${i}`, 3_600_000);
    // At the bound: the oldest set mark goes, not the one renewed after it.
    await store.markOnce('one more', 3_600_000);
    expect(await store.markOnce('again', 3_600_000)).toBe(false);
    expect(await store.markOnce('other:0', 3_600_000)).toBe(true);
    await store.close();
  });
});
