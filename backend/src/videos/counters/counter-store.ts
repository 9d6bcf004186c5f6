/** What a flush writes for one video: counted views, likes and trending signals since the last flush. */
export interface CounterDelta {
  videoId: number;
  views: number;
  likes: number;
  trending: number;
}

export type CounterField = 'views' | 'likes' | 'trending';

/** Counts not yet in the database, as reads add them. */
export type PendingCounts = Map<number, { views: number; likes: number }>;

/**
 * Writes one batch of counts to the database. A batch whose write failed is written again, whole, under the same
 * `batch` id (its first write may have committed before the failure); the database adds a batch id once
 * (`VideosRepository.applyCounts`).
 */
export type BatchWrite = (deltas: CounterDelta[], batch: string) => Promise<unknown>;

/** The store's operations answered at once, where it lives in this process (no round trip to Redis). */
export interface SyncCounterStore {
  markOnce(key: string, ttlMs: number): boolean;
  increment(videoId: number, field: CounterField, by?: number): void;
  /** What one video has in the buffer, in flight included. */
  pendingOf(videoId: number): { views: number; likes: number };
}

/**
 * Where counted events wait for the next flush, and where dedupe windows live. In process by default, in Redis
 * when REDIS_URL is set so that every API process shares them.
 */
export interface CounterStore {
  /** The same store answering at once, where it is in this process; absent where it is Redis. */
  readonly now?: SyncCounterStore;
  /** True the first time a key is marked within `ttlMs`; false while the mark lasts. */
  markOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Forgets a mark (when the write it guarded failed). */
  unmark(key: string): Promise<void>;
  increment(videoId: number, field: CounterField, by?: number): Promise<void>;
  /**
   * `markOnce` and, when it marked, `increment` by one, as one step: a process killed between the two would leave a
   * viewer marked and their view uncounted, and the view sent again (nginx retries it on another process) deduped.
   */
  countOnce(key: string, ttlMs: number, videoId: number, field: CounterField): Promise<boolean>;
  pending(videoIds: number[]): Promise<PendingCounts>;
  /**
   * Takes every pending count out of the store atomically, as a batch with an id, and hands it to `write`; the
   * counts stay visible to `pending` until `write` resolves and the batch has left the store. A batch whose write
   * throws stays in the store, whole and under its id, and the next drain writes it again first. `written` runs as
   * the counts leave `pending` (in the same synchronous step where the store allows it), for the rows cache to
   * take them over without a moment where a read sees them twice or not at all. Returns how many videos.
   */
  drain(write: BatchWrite, written?: (deltas: CounterDelta[]) => void): Promise<number>;
  /** How many videos have counts waiting to be written (the metrics' buffered counts). */
  buffered(): Promise<number>;
  close(): Promise<void>;
}

export const COUNTER_STORE = Symbol('COUNTER_STORE');

export function emptyDelta(videoId: number): CounterDelta {
  return { videoId, views: 0, likes: 0, trending: 0 };
}
