import { NotFoundError } from '../../common/errors/domain-errors';
import type { AppConfig } from '../../config/app-config';
import type { MemberLikes } from './member-likes';
import type { VideosRepository } from '../videos.repository';
import type { CounterDelta, CounterStore } from './counter-store';
import { CountersErrorCode } from './counter-errors';
import { CountersService } from './counters.service';
import { MemoryCounterStore } from './memory-counter-store';

/**
 * The counters with the database faked: what is counted once, what a flush writes, and that nothing is lost
 * when a write fails. The SQL of the write itself runs in the counters e2e suite on both databases.
 */
class FakeVideos {
  stored = new Map<number, { views: number; likes: number }>([[1, { views: 10, likes: 2 }], [2, { views: 0, likes: 0 }]]);
  writes: CounterDelta[][] = [];
  failNext = false;

  async assertPublished(id: number) {
    if (!this.stored.has(id)) throw new NotFoundError('Video not found');
  }
  /** Rows "kept in the catalogue cache": a video can be published without being kept. */
  kept = new Set<number>([1]);
  keptPublishedCounts(id: number) {
    return this.kept.has(id) ? this.stored.get(id) : undefined;
  }
  async storedCounts(id: number) {
    return this.stored.get(id) ?? { views: 0, likes: 0 };
  }
  countsApplied(_deltas: CounterDelta[]) {
    // The catalogue cache's part: nothing to keep here.
  }
  async applyCounts(deltas: CounterDelta[], _batch: string) {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection lost');
    }
    this.writes.push(deltas);
    for (const d of deltas) {
      const row = this.stored.get(d.videoId);
      if (row) this.stored.set(d.videoId, { views: row.views + d.views, likes: row.likes + d.likes });
    }
  }
}

class FakeLikes {
  rows = new Set<string>();
  async add(userId: string, videoId: number) {
    const key = `${userId}:${videoId}`;
    if (this.rows.has(key)) return false;
    this.rows.add(key);
    return true;
  }
}

function setup() {
  const videos = new FakeVideos();
  const store = new MemoryCounterStore();
  const counters = new CountersService(
    videos as unknown as VideosRepository,
    new FakeLikes() as unknown as MemberLikes,
    store,
    { jwtSecret: 'test', counterFlushMs: 60_000 } as AppConfig,
  );
  return { videos, store, counters };
}

const byVideo = (deltas: CounterDelta[]) => Object.fromEntries(deltas.map((d) => [d.videoId, d]));

describe('CountersService', () => {
  it('counts one view per viewer per video, and answers the stored count plus the buffered ones', async () => {
    const { counters, store } = setup();
    expect(await counters.recordView(1, 'viewer-a')).toEqual({ views: 11 });
    expect(await counters.recordView(1, 'viewer-a')).toEqual({ views: 11 });
    expect(await counters.recordView(1, 'viewer-b')).toEqual({ views: 12 });
    await store.close();
  });

  it('counts at once from memory where it can, sharing the dedupe and the buffer with the awaited way', async () => {
    const { counters, store } = setup();
    expect(counters.recordViewNow(1, 'viewer-a')).toEqual({ views: 11 });
    expect(await counters.recordView(1, 'viewer-a')).toEqual({ views: 11 });
    expect(await counters.recordView(1, 'viewer-b')).toEqual({ views: 12 });
    expect(counters.recordViewNow(1, 'viewer-b')).toEqual({ views: 12 });
    expect(counters.recordViewNow(1, 'viewer-c')).toEqual({ views: 13 });
    expect(counters.recordTrendingNow(1, 'viewer-a')).toBe(true);
    // Not kept (or not published, or not in memory): the caller awaits the full way, nothing is counted here.
    expect(counters.recordViewNow(2, 'viewer-a')).toBeUndefined();
    expect(counters.recordTrendingNow(2, 'viewer-a')).toBe(false);
    expect(counters.recordViewNow(99, 'viewer-a')).toBeUndefined();
    expect(await counters.flush()).toBe(1);
    expect(await counters.recordView(1, 'viewer-d')).toEqual({ views: 14 });
    await store.close();
  });

  it('never counts at once from a store in Redis (no store in memory)', async () => {
    const videos = new FakeVideos();
    const memory = new MemoryCounterStore();
    // The store's async face only, as the Redis store has.
    const shared: CounterStore = {
      markOnce: (key, ttl) => memory.markOnce(key, ttl),
      unmark: (key) => memory.unmark(key),
      increment: (id, field, by) => memory.increment(id, field, by),
      countOnce: (key, ttl, id, field) => memory.countOnce(key, ttl, id, field),
      pending: (ids) => memory.pending(ids),
      drain: (write, written) => memory.drain(write, written),
      buffered: () => memory.buffered(),
      close: () => memory.close(),
    };
    const counters = new CountersService(videos as unknown as VideosRepository, new FakeLikes() as unknown as MemberLikes, shared, {
      jwtSecret: 'test',
      counterFlushMs: 60_000,
    } as AppConfig);
    expect(counters.recordViewNow(1, 'viewer-a')).toBeUndefined();
    expect(counters.recordTrendingNow(1, 'viewer-a')).toBe(false);
    expect(await counters.recordView(1, 'viewer-a')).toEqual({ views: 11 });
    await memory.close();
  });

  it('answers 404 for a video that is not published, counting nothing', async () => {
    const { counters, videos, store } = setup();
    await expect(counters.recordView(99, 'viewer-a')).rejects.toThrow(NotFoundError);
    await counters.flush();
    expect(videos.writes).toEqual([]);
    await store.close();
  });

  it('flushes views, likes and trending signals of every video in one write, then nothing more', async () => {
    const { counters, videos, store } = setup();
    await counters.recordView(1, 'a');
    await counters.recordView(1, 'b');
    await counters.recordView(2, 'a');
    await counters.recordTrending(2, 'a');
    await counters.recordLike(1, 'member-1', 'x');
    await counters.recordLike(1, null, 'guest');
    expect(await counters.flush()).toBe(2);
    expect(videos.writes).toHaveLength(1);
    expect(byVideo(videos.writes[0])).toEqual({
      1: { videoId: 1, views: 2, likes: 2, trending: 0 },
      2: { videoId: 2, views: 1, likes: 0, trending: 1 },
    });
    expect(await counters.flush()).toBe(0);
    expect(videos.writes).toHaveLength(1);
    expect(await counters.recordView(1, 'c')).toEqual({ views: 13 });
    await store.close();
  });

  it('keeps the counts of a failed flush for the next one, and shows them meanwhile', async () => {
    const { counters, videos, store } = setup();
    await counters.recordView(1, 'a');
    videos.failNext = true;
    await expect(counters.flush()).rejects.toThrow('connection lost');
    expect((await counters.pending([1])).get(1)).toMatchObject({ views: 1 });
    expect(await counters.flush()).toBe(1);
    expect(videos.stored.get(1)).toEqual({ views: 11, likes: 2 });
    await store.close();
  });

  it('answers ALREADY_LIKED to a repeat like, from a member or a guest', async () => {
    const { counters, store } = setup();
    expect(await counters.recordLike(1, 'member-1', 'x')).toEqual({ likes: 3 });
    await expect(counters.recordLike(1, 'member-1', 'y')).rejects.toMatchObject({ code: CountersErrorCode.AlreadyLiked });
    expect(await counters.recordLike(1, null, 'guest')).toEqual({ likes: 4 });
    await expect(counters.recordLike(1, null, 'guest')).rejects.toMatchObject({ code: CountersErrorCode.AlreadyLiked });
    await store.close();
  });

  it('runs flushes one at a time: a flush asked for during another writes what came after', async () => {
    const { counters, videos, store } = setup();
    await counters.recordView(1, 'a');
    // The first flush is held in its write until the view of video 2 is counted and the second flush asked for.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const apply = videos.applyCounts.bind(videos);
    let writing!: () => void;
    const inWrite = new Promise<void>((resolve) => (writing = resolve));
    videos.applyCounts = async (deltas, batch) => {
      writing();
      await held;
      return apply(deltas, batch);
    };
    const first = counters.flush();
    await inWrite;
    await counters.recordView(2, 'a');
    const second = counters.flush();
    release();
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    expect(videos.writes.map((w) => w.map((d) => d.videoId))).toEqual([[1], [2]]);
    await store.close();
  });
});
