import { RenderPool, RendersBusy, TokenBucket } from './render-pool';

describe('RenderPool', () => {
  it('runs so many at once, lines up so many more, and refuses the rest at once', async () => {
    const pool = new RenderPool(2, 3);
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const render = (n: number) => () => new Promise<number>((resolve) => {
      started.push(n);
      releases.push(() => resolve(n));
    });
    const accepted = [1, 2, 3, 4, 5].map((n) => pool.run(render(n)));
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    expect(pool.load).toEqual({ running: 2, waiting: 3 });
    await expect(pool.run(render(6))).rejects.toBeInstanceOf(RendersBusy);
    while (releases.length) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(accepted)).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('TokenBucket', () => {
  it('gives its burst at once, then so many a second', () => {
    let now = 0;
    const bucket = new TokenBucket(3, 2, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now = 499;
    expect(bucket.take()).toBe(false);
    now = 500;
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    now = 60_000;
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});
