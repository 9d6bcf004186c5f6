import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RESUME_END_MARGIN_SECONDS, resumablePosition } from '@hunktube/shared';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { cardColumns, type VideoCardRow } from '../videos/video.mapper';
import { joinVideos, VIDEO_NOT_FOUND, VideosRepository } from '../videos/videos.repository';
import { VideosService } from '../videos/videos.service';
import type { ContinueWatchingCardDto, ContinueWatchingDto, ResumePositionStateDto } from './dto/continue-watching.dto';
import { iso } from '../common/utils/iso';
import { NotFoundError } from '../common/errors/domain-errors';

/** Rows read beyond the row's length, so that videos of hidden topics left out still leave it full. */
const HIDDEN_ROOM = 20;

type ContinueRow = VideoCardRow & { watched_at: Date | string; position_seconds: number };

/**
 * Where a member stopped each video (`history_entries.position_seconds`, docs/decisions.md › "Continue watching"): written
 * by the player as it plays, read by the home page's row. It is part of the history: paused with it, cleared
 * with it, gone with the video or the account.
 */
@Injectable()
export class ContinueWatchingService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repository: VideosRepository,
    private readonly videos: VideosService,
  ) {}

  /** Records the position (and that the video was watched now), unless the member's history is paused. */
  async save(user: AuthUser, videoId: number, seconds: number | null): Promise<ResumePositionStateDto> {
    // One read of the published row: it answers whether the video is published and how long it is.
    const row = (await this.repository.publishedRows([videoId])).get(videoId);
    if (!row) throw new NotFoundError(VIDEO_NOT_FOUND);
    const position = seconds === null ? null : resumablePosition(seconds, row.duration);
    if (user.historyPaused) return { recorded: false, position };
    await this.db.query(
      `INSERT INTO history_entries (user_id, video_id, watched_at, position_seconds) VALUES ($1, $2, now(), $3)
       ON CONFLICT (user_id, video_id) DO UPDATE SET watched_at = now(), position_seconds = EXCLUDED.position_seconds`,
      [user.id, videoId, position],
    );
    return { recorded: true, position };
  }

  /** Takes a video out of the row; it stays in the history. Idempotent, any id. */
  async forget(user: AuthUser, videoId: number): Promise<void> {
    await this.db.query('UPDATE history_entries SET position_seconds = NULL WHERE user_id = $1 AND video_id = $2 AND position_seconds IS NOT NULL', [
      user.id,
      videoId,
    ]);
  }

  /**
   * Published videos started and not finished, most recently watched first, without those of topics the member
   * hides; nothing while history is paused.
   */
  async list(user: AuthUser, limit: number): Promise<ContinueWatchingDto> {
    if (user.historyPaused) return { data: [], paused: true };
    // The partial index history_entries_resumable_idx reads only the entries with a position, newest first.
    const rows = await this.db.query<ContinueRow[]>(
      `SELECT ${cardColumns('v')}, l.watched_at, l.position_seconds FROM history_entries l ${joinVideos('v', 'l.video_id')}
       WHERE l.user_id = $1 AND l.position_seconds IS NOT NULL
         AND (v.duration IS NULL OR l.position_seconds < v.duration - $3)
       ORDER BY l.watched_at DESC, l.video_id DESC LIMIT $2`,
      // Room for the videos of topics the member hides, which are left out.
      [user.id, limit + HIDDEN_ROOM, RESUME_END_MARGIN_SECONDS],
    );
    const shown = new Set(await this.videos.withoutHidden(rows.map((row) => Number(row.id)), user.id));
    const kept = rows.filter((row) => shown.has(Number(row.id))).slice(0, limit);
    const cards = await this.videos.cards(kept);
    const data: ContinueWatchingCardDto[] = cards.map((card, i) => ({
      ...card,
      watched_at: iso(kept[i].watched_at),
      position_seconds: Number(kept[i].position_seconds),
    }));
    return { data, paused: false };
  }
}
