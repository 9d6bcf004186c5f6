import { randomUUID } from 'node:crypto';
import { BatchWrite, CounterDelta, CounterField, CounterStore, emptyDelta, PendingCounts, SyncCounterStore } from './counter-store';

/**
 * Dedupe marks kept at most (about 100 bytes each: some 50 MB). Past it the oldest are forgotten first, so a
 * flood of distinct viewers costs bounded memory; a viewer whose mark was forgotten may be counted again.
 */
export const MAX_MARKS = 500_000;

/** The in-process store: one Map of counts, one of dedupe marks with their expiry times. */
export class MemoryCounterStore implements CounterStore {
  private counts = new Map<number, CounterDelta>();
  /**
   * Batches taken out of `counts` and not yet written, oldest first, each under its id: the one being written, and
   * any whose write failed, which the next flush writes again first, under the same id, as their write may have
   * committed before its answer was lost. Reads still count them.
   */
  private readonly unwritten: { id: string; counts: Map<number, CounterDelta> }[] = [];
  /** Mark → when it expires, in the order the marks were set (a renewed mark moves to the end). */
  private readonly marks = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly maxMarks = MAX_MARKS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  readonly now: SyncCounterStore = {
    markOnce: (key, ttlMs) => {
      const now = this.clock();
      const expires = this.marks.get(key);
      if (expires !== undefined && expires > now) return false;
      if (expires !== undefined) this.marks.delete(key);
      else if (this.marks.size >= this.maxMarks) this.makeRoom(now);
      this.marks.set(key, now + ttlMs);
      return true;
    },
    increment: (videoId, field, by = 1) => add(this.counts, videoId, field, by),
    pendingOf: (videoId) => {
      const d = this.counts.get(videoId);
      let views = d?.views ?? 0;
      let likes = d?.likes ?? 0;
      for (const batch of this.unwritten) {
        const u = batch.counts.get(videoId);
        if (u) {
          views += u.views;
          likes += u.likes;
        }
      }
      return { views, likes };
    },
  };

  async buffered(): Promise<number> {
    return this.counts.size + this.unwritten.reduce((n, batch) => n + batch.counts.size, 0);
  }

  async markOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.now.markOnce(key, ttlMs);
  }

  async unmark(key: string): Promise<void> {
    this.marks.delete(key);
  }

  async increment(videoId: number, field: CounterField, by = 1): Promise<void> {
    this.now.increment(videoId, field, by);
  }

  async countOnce(key: string, ttlMs: number, videoId: number, field: CounterField): Promise<boolean> {
    if (!this.now.markOnce(key, ttlMs)) return false;
    this.now.increment(videoId, field);
    return true;
  }

  async pending(videoIds: number[]): Promise<PendingCounts> {
    const result: PendingCounts = new Map();
    for (const id of videoIds) {
      const counts = this.now.pendingOf(id);
      if (counts.views || counts.likes) result.set(id, counts);
    }
    return result;
  }

  async drain(write: BatchWrite, written?: (deltas: CounterDelta[]) => void): Promise<number> {
    let videos = 0;
    while (this.unwritten.length > 0) videos += await this.writeOldest(write, written);
    if (this.counts.size === 0) return videos;
    // Swapping the map is the atomic take: increments from here on go to the new one.
    this.unwritten.push({ id: `memory:${randomUUID()}`, counts: this.counts });
    this.counts = new Map();
    return videos + (await this.writeOldest(write, written));
  }

  /** Writes the oldest unwritten batch; it stays the oldest, and counted by reads, if the write throws. */
  private async writeOldest(write: BatchWrite, written?: (deltas: CounterDelta[]) => void): Promise<number> {
    const batch = this.unwritten[0];
    const deltas = [...batch.counts.values()];
    await write(deltas, batch.id);
    this.unwritten.shift();
    written?.(deltas);
    return batch.counts.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  /** The number of dedupe marks kept (expired ones included until the next sweep). */
  get markCount(): number {
    return this.marks.size;
  }

  private sweep(now = this.clock()): void {
    for (const [key, expires] of this.marks) if (expires <= now) this.marks.delete(key);
  }

  /** At the bound: drops the expired marks, and if that is not enough the oldest hundredth. */
  private makeRoom(now: number): void {
    this.sweep(now);
    let drop = this.marks.size - this.maxMarks + Math.ceil(this.maxMarks / 100);
    for (const key of this.marks.keys()) {
      if (drop-- <= 0) break;
      this.marks.delete(key);
    }
  }
}

function add(counts: Map<number, CounterDelta>, videoId: number, field: CounterField, by: number): void {
  let d = counts.get(videoId);
  if (!d) counts.set(videoId, (d = emptyDelta(videoId)));
  d[field] += by;
}
