import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { assertOwnUser } from '../common/utils/ownership';
import type { PageQuery } from '../videos/dto/list-videos.query';
import type { VideoCardDto, VideoCardPageDto } from '../videos/dto/video.dto';
import { cardColumns, type VideoCardRow } from '../videos/video.mapper';
import { VideosService } from '../videos/videos.service';
import { joinVideos } from '../videos/videos.repository';
import { AuthService } from '../auth/auth.service';
import type { HistoryPageDto } from './dto/me.dto';
import type { BookmarkListDto, BookmarkStateDto, ListAction, ListActionDto, UserIdDto, WatchedVideoDto, WatchLaterStateDto } from './dto/watch-page.dto';
import { toHistoryCards } from './lists.mapper';
import { iso } from '../common/utils/iso';

/**
 * The watch page reads the whole bookmark list to know whether the video on screen is bookmarked; past this
 * many (the newest) it is a page of /api/me/bookmarks that the user wants, not this call.
 */
export const BOOKMARKS_CAP = 500;

/** The user's lists of videos: table and the column its "newest first" reads. Never from input. */
const LISTS = {
  bookmarks: { table: 'bookmarks', at: 'created_at' },
  watchLater: { table: 'watch_later_items', at: 'created_at' },
  likes: { table: 'likes', at: 'created_at' },
  history: { table: 'history_entries', at: 'watched_at' },
} as const;
type UserList = keyof typeof LISTS;

type ListedRow = VideoCardRow & { listed_at: Date | string };

/** The member's lists as the account's export holds them: video ids and times, newest first. */
export interface ListsExport {
  bookmarks: { video_id: number; added_at: string }[];
  watch_later: { video_id: number; added_at: string }[];
  likes: { video_id: number; liked_at: string }[];
  history: { video_id: number; watched_at: string; position_seconds: number | null }[];
}

@Injectable()
export class ListsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly videos: VideosService,
    private readonly users: AuthService,
  ) {}

  /** Watching again moves the entry to now; while the user's history is paused nothing is written. */
  async addHistory(user: AuthUser, dto: WatchedVideoDto): Promise<void> {
    assertOwnUser(user.id, dto.userId);
    await this.videos.assertPublished(dto.videoId);
    if (user.historyPaused) return;
    await this.db.query(
      `INSERT INTO history_entries (user_id, video_id, watched_at) VALUES ($1, $2, now())
       ON CONFLICT (user_id, video_id) DO UPDATE SET watched_at = now()`,
      [user.id, dto.videoId],
    );
  }

  async bookmarks(user: AuthUser, dto: UserIdDto): Promise<BookmarkListDto> {
    assertOwnUser(user.id, dto.userId);
    const rows = await this.listRows('bookmarks', user.id, BOOKMARKS_CAP, 0);
    return { bookmarks: await this.videos.cards(rows), error: null };
  }

  async setBookmark(user: AuthUser, dto: ListActionDto): Promise<BookmarkStateDto> {
    assertOwnUser(user.id, dto.userId);
    return { bookmarked: await this.setMembership('bookmarks', user.id, dto.videoId, dto.action), error: null };
  }

  async setWatchLater(user: AuthUser, dto: ListActionDto): Promise<WatchLaterStateDto> {
    assertOwnUser(user.id, dto.userId);
    return { queued: await this.setMembership('watchLater', user.id, dto.videoId, dto.action), error: null };
  }

  page(list: Exclude<UserList, 'history'>, user: AuthUser, query: PageQuery): Promise<VideoCardPageDto> {
    return this.listPage(list, user.id, query, (rows) => this.videos.cards(rows));
  }

  historyPage(user: AuthUser, query: PageQuery): Promise<HistoryPageDto> {
    return this.listPage('history', user.id, query, async (rows) =>
      toHistoryCards(await this.videos.cards(rows), rows.map((row) => ({ id: row.id, watched_at: row.listed_at }))),
    );
  }

  async clearHistory(user: AuthUser): Promise<void> {
    await this.db.query(`DELETE FROM history_entries WHERE user_id = $1`, [user.id]);
  }

  async setHistoryPaused(user: AuthUser, paused: boolean): Promise<{ paused: boolean }> {
    await this.users.setHistoryPaused(user.id, paused);
    return { paused };
  }

  /**
   * Every entry of the member's lists, for the account's export: video ids with their times, newest first, any
   * state of the video (what the member kept is theirs, published or not).
   */
  async exportLists(userId: string): Promise<ListsExport> {
    const read = (list: UserList, extra = '') => {
      const { table, at } = LISTS[list];
      return this.db.query<{ video_id: number; at: Date | string; position_seconds?: number | null }[]>(
        `SELECT video_id, ${at} AS at${extra} FROM ${table} WHERE user_id = $1 ORDER BY ${at} DESC, video_id DESC`,
        [userId],
      );
    };
    const [bookmarks, watchLater, likes, history] = await Promise.all([
      read('bookmarks'),
      read('watchLater'),
      read('likes'),
      read('history', ', position_seconds'),
    ]);
    const added = (rows: { video_id: number; at: Date | string }[]) => rows.map((row) => ({ video_id: Number(row.video_id), added_at: iso(row.at) }));
    return {
      bookmarks: added(bookmarks),
      watch_later: added(watchLater),
      likes: likes.map((row) => ({ video_id: Number(row.video_id), liked_at: iso(row.at) })),
      history: history.map((row) => ({ video_id: Number(row.video_id), watched_at: iso(row.at), position_seconds: row.position_seconds ?? null })),
    };
  }

  /** Adds (idempotent; only a published video) or removes (idempotent; any id) a video; answers the new state. */
  private async setMembership(list: 'bookmarks' | 'watchLater', userId: string, videoId: number, action: ListAction): Promise<boolean> {
    const { table } = LISTS[list];
    if (action === 'delete') {
      await this.db.query(`DELETE FROM ${table} WHERE user_id = $1 AND video_id = $2`, [userId, videoId]);
      return false;
    }
    await this.videos.assertPublished(videoId);
    await this.db.query(`INSERT INTO ${table} (user_id, video_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [userId, videoId]);
    return true;
  }

  private async listPage<T extends VideoCardDto>(
    list: UserList,
    userId: string,
    query: PageQuery,
    toCards: (rows: ListedRow[]) => Promise<T[]>,
  ): Promise<{ data: T[]; page: number; limit: number; total: number }> {
    const { table } = LISTS[list];
    const [rows, [{ total }]] = await Promise.all([
      this.listRows(list, userId, query.limit, (query.page - 1) * query.limit),
      this.db.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM ${table} l ${joinVideos('v', 'l.video_id')} WHERE l.user_id = $1`,
        [userId],
      ),
    ]);
    return { data: await toCards(rows), page: query.page, limit: query.limit, total: Number(total) };
  }

  /** Published videos of one of the user's lists, newest first (ties: higher video id first). */
  private listRows(list: UserList, userId: string, limit: number, offset: number): Promise<ListedRow[]> {
    const { table, at } = LISTS[list];
    return this.db.query<ListedRow[]>(
      `SELECT ${cardColumns('v')}, l.${at} AS listed_at FROM ${table} l ${joinVideos('v', 'l.video_id')}
       WHERE l.user_id = $1
       ORDER BY l.${at} DESC, l.video_id DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    );
  }
}
