import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { isDependencyDown } from '../../common/errors/dependency-errors';
import type { AppConfig } from '../../config/app-config';
import { Metrics } from '../../common/metrics/metrics';
import { APP_CONFIG } from '../../config/config.module';
import { createHash } from 'node:crypto';
import { COUNTER_STORE } from './counter-store';
import type { CounterStore, PendingCounts } from './counter-store';
import { viewerKey } from './viewer';
import type { ClientInfo } from './viewer.decorator';
import { MEMBER_LIKES, type MemberLikes } from './member-likes';
import { VideosRepository } from '../videos.repository';
import { ConflictError } from '../../common/errors/domain-errors';
import { CountersErrorCode } from './counter-errors';

export const HOUR_MS = 60 * 60_000;
export const DAY_MS = 24 * HOUR_MS;

/** The dedupe mark of one viewer's view or trending signal on a video (one an hour each). */
const viewMark = (videoId: number, viewer: string) => `view:${videoId}:${viewer}`;
const trendMark = (videoId: number, viewer: string) => `trend:${videoId}:${viewer}`;

/**
 * Views, likes and trending signals. Each counted event goes into the store and reaches the database in
 * batches: one UPDATE for all videos of a flush plus their per-day stats rows, every COUNTER_FLUSH_MS, on
 * demand (admins' refresh) and before shutdown. Every read adds what is still buffered.
 */
@Injectable()
export class CountersService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CountersService.name);
  private timer?: NodeJS.Timeout;
  private flushing: Promise<number> = Promise.resolve(0);
  /** Keys the viewer hashes; derived from the JWT secret so that it is as private and as stable. */
  private readonly viewerSecret: string;

  constructor(
    private readonly videos: VideosRepository,
    @Inject(MEMBER_LIKES) private readonly likes: MemberLikes,
    @Inject(COUNTER_STORE) private readonly store: CounterStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() metrics?: Metrics,
  ) {
    this.viewerSecret = createHash('sha256').update(`viewer:${config.jwtSecret}`).digest('hex');
    metrics?.gauge('counter_flush_lag_seconds', 'Seconds since this process last wrote the buffered counts (every COUNTER_FLUSH_MS while the database answers)', () => (Date.now() - this.lastFlushAt) / 1000);
    metrics?.gauge('counter_buffered_videos', 'Videos whose views or likes wait in the buffer (this process, and Redis when set)', () => this.store.buffered());
  }

  /** When the last flush ended well (or the process started). */
  private lastFlushAt = Date.now();

  /**
   * Who is counted: the member, or a keyed hash of the guest's network (the IPv4 address, the IPv6 /64), whatever
   * the user agent says, as the contract has it (the address is never kept).
   */
  viewerOf(user: { id: string } | null, client: ClientInfo): string {
    return viewerKey(user?.id ?? null, client.network, this.viewerSecret);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => {
        // During an outage every flush fails the same way: the counts stay buffered, one short line each time.
        if (isDependencyDown(error)) this.logger.warn(`Counter flush postponed, the database does not answer: ${String(error)}`);
        else this.logger.error(`Counter flush failed, will retry: ${String(error)}`);
      });
    }, this.config.counterFlushMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.flush();
    } finally {
      await this.store.close();
    }
  }

  /** One counted view per viewer per video per hour; a repeat answers the count unchanged. */
  async recordView(videoId: number, viewer: string): Promise<{ views: number }> {
    await this.assertPublished(videoId);
    await this.store.countOnce(viewMark(videoId, viewer), HOUR_MS, videoId, 'views');
    return { views: (await this.current(videoId)).views };
  }

  /**
   * `recordView` answered at once, when all it needs is in this process's memory: the buffer is in process and
   * the video's row is in the catalogue cache (so it is published); undefined when it is not, and the caller
   * awaits `recordView`. The stored count and the buffer are read in one synchronous step, as a flush moves counts
   * from one to the other in one.
   */
  recordViewNow(videoId: number, viewer: string): { views: number } | undefined {
    const now = this.store.now;
    const stored = now && this.videos.keptPublishedCounts(videoId);
    if (!now || !stored) return undefined;
    if (now.markOnce(viewMark(videoId, viewer), HOUR_MS)) now.increment(videoId, 'views');
    return { views: stored.views + now.pendingOf(videoId).views };
  }

  /** `recordTrending` done at once where it can be (see `recordViewNow`): false when the caller must await it. */
  recordTrendingNow(videoId: number, viewer: string): boolean {
    const now = this.store.now;
    if (!now || !this.videos.keptPublishedCounts(videoId)) return false;
    if (now.markOnce(trendMark(videoId, viewer), HOUR_MS)) now.increment(videoId, 'trending');
    return true;
  }

  /** One trending signal per viewer per video per hour; it counts in the per-day stats that rank trending. */
  async recordTrending(videoId: number, viewer: string): Promise<void> {
    await this.assertPublished(videoId);
    await this.store.countOnce(trendMark(videoId, viewer), HOUR_MS, videoId, 'trending');
  }

  /**
   * A member likes a video once (their like is a row of `likes`, which the database keeps unique); anyone else
   * once per network per video per day. A repeat answers 409 ALREADY_LIKED.
   */
  async recordLike(videoId: number, userId: string | null, viewer: string): Promise<{ likes: number }> {
    await this.assertPublished(videoId);
    if (userId) {
      if (!(await this.likes.add(userId, videoId))) throw new ConflictError('You already like this video', CountersErrorCode.AlreadyLiked);
    } else if (!(await this.store.markOnce(`like:${videoId}:${viewer}`, DAY_MS))) {
      throw new ConflictError('You already like this video', CountersErrorCode.AlreadyLiked);
    }
    await this.store.increment(videoId, 'likes');
    return { likes: (await this.current(videoId)).likes };
  }

  /**
   * A member takes their like back (docs/decisions.md › "Likes taken back"): their row of `likes` goes, and the count
   * goes down by one through the buffer like every other count, so a like and an unlike in one flush cancel.
   * Not below zero: where an admin set the count lower than the likes given, the row goes and the count stays.
   * Not liking the video answers 409 NOT_LIKED.
   */
  async removeLike(videoId: number, userId: string): Promise<{ likes: number }> {
    await this.assertPublished(videoId);
    if (!(await this.likes.remove(userId, videoId))) {
      throw new ConflictError('You do not like this video', CountersErrorCode.NotLiked);
    }
    if ((await this.current(videoId)).likes > 0) await this.store.increment(videoId, 'likes', -1);
    return { likes: Math.max(0, (await this.current(videoId)).likes) };
  }

  /** Counts still in the buffer, for reads to add. */
  pending(videoIds: number[]): Promise<PendingCounts> {
    return this.store.pending(videoIds);
  }

  /**
   * Writes every buffered count now; flushes run one at a time. Returns how many videos' counts were written.
   */
  flush(): Promise<number> {
    const run = this.flushing.catch(() => 0).then(() =>
      this.store.drain(
        (deltas, batch) => this.videos.applyCounts(deltas, batch),
        (deltas) => this.videos.countsApplied(deltas),
      ),
    );
    this.flushing = run;
    void run.then(() => (this.lastFlushAt = Date.now()), () => undefined);
    return run;
  }

  private async current(videoId: number): Promise<{ views: number; likes: number }> {
    const [stored, pending] = await Promise.all([this.videos.storedCounts(videoId), this.store.pending([videoId])]);
    const p = pending.get(videoId);
    return { views: stored.views + (p?.views ?? 0), likes: stored.likes + (p?.likes ?? 0) };
  }

  private assertPublished(videoId: number): Promise<void> {
    return this.videos.assertPublished(videoId);
  }
}
