import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { isUniqueViolation } from '../common/utils/database-errors';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { assertOwnUser } from '../common/utils/ownership';
import { cardColumns, type VideoCardRow } from '../videos/video.mapper';
import { VideosService } from '../videos/videos.service';
import { joinVideos, published, VideosRepository } from '../videos/videos.repository';
import type {
  AddToPlaylistDto,
  CreatedPlaylistDto,
  CreatePlaylistDto,
  NoErrorDto,
  PlaylistDto,
  PlaylistListDto,
  PlaylistVideosDto,
} from './dto/playlist.dto';
import { reorderedVideoIds } from './playlist-order';
import { normalizePlaylistTitle, validatePlaylistTitle } from '@hunktube/shared';
import { type PlaylistRow, type PlaylistSummaryRow, toPlaylistRef, toPlaylistSummary } from './playlists.mapper';
import { iso } from '../common/utils/iso';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../common/errors/domain-errors';
import { PlaylistsErrorCode } from './playlists-errors';

export const PLAYLIST_NOT_FOUND = 'Playlist not found';
export const NOT_YOUR_PLAYLIST = 'You are not allowed to change this playlist';
export const DUPLICATE_TITLE = 'You already have a playlist with this title';
export const ALREADY_IN_PLAYLIST = 'Video is already in playlist';
export const NOT_IN_PLAYLIST = 'Video is not in this playlist';
export const NOT_A_PERMUTATION = 'video_ids must list every video of the playlist exactly once';
/** PostgreSQL's unique_violation: the client recognises a duplicate by this code. */

/** A playlist as the account's export holds it. */
export interface PlaylistExport {
  id: number;
  title: string;
  created_at: string;
  updated_at: string;
  videos: { video_id: number; added_at: string }[];
}

/** Playlist order; `position` ties (not expected, but cheap to make stable) fall back to the time added. */
const ITEM_ORDER = 'i.position, i.added_at, i.video_id';

@Injectable()
export class PlaylistsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly videos: VideosService,
    private readonly catalogue: VideosRepository,
  ) {}

  /** The caller's playlists, most recently changed first; count and thumbnail count published videos only. */
  async list(user: AuthUser): Promise<PlaylistListDto> {
    const rows = await this.db.query<PlaylistSummaryRow[]>(
      `SELECT p.id, p.title, p.user_id,
         (SELECT count(*)::int FROM playlist_items i ${joinVideos('v', 'i.video_id')}
          WHERE i.playlist_id = p.id) AS video_count,
         (SELECT NULLIF(v.thumbnail, '') FROM playlist_items i ${joinVideos('v', 'i.video_id')}
          WHERE i.playlist_id = p.id ORDER BY ${ITEM_ORDER} LIMIT 1) AS thumbnail
       FROM playlists p WHERE p.user_id = $1
       ORDER BY p.updated_at DESC, p.id DESC`,
      [user.id],
    );
    return { data: rows.map(toPlaylistSummary), error: null };
  }

  /** Every playlist of the member with its videos in order, for the account's export (any state of the videos). */
  async exportPlaylists(userId: string): Promise<PlaylistExport[]> {
    const [playlists, items] = await Promise.all([
      this.db.query<{ id: number; title: string; created_at: Date | string; updated_at: Date | string }[]>(
        'SELECT id, title, created_at, updated_at FROM playlists WHERE user_id = $1 ORDER BY updated_at DESC, id DESC',
        [userId],
      ),
      this.db.query<{ playlist_id: number; video_id: number; added_at: Date | string }[]>(
        `SELECT i.playlist_id, i.video_id, i.added_at FROM playlist_items i JOIN playlists p ON p.id = i.playlist_id
         WHERE p.user_id = $1 ORDER BY ${ITEM_ORDER}`,
        [userId],
      ),
    ]);
    return playlists.map((playlist) => ({
      id: Number(playlist.id),
      title: playlist.title,
      created_at: iso(playlist.created_at),
      updated_at: iso(playlist.updated_at),
      videos: items
        .filter((item) => Number(item.playlist_id) === Number(playlist.id))
        .map((item) => ({ video_id: Number(item.video_id), added_at: iso(item.added_at) })),
    }));
  }

  /**
   * A new playlist holding its first video, in one transaction: an unknown video leaves no playlist behind.
   * A taken title (case-insensitive) is the unique index's 23505, not a prior look-up that a race could pass.
   */
  async create(user: AuthUser, dto: CreatePlaylistDto): Promise<CreatedPlaylistDto> {
    assertOwnUser(user.id, dto.user_id);
    const title = this.checkedTitle(dto.title);
    return this.mapDuplicate(DUPLICATE_TITLE, () =>
      this.db.transaction(async (tx) => {
        const [playlist] = await tx.query<PlaylistRow[]>(
          `INSERT INTO playlists (user_id, title) VALUES ($1, $2) RETURNING id, title, user_id`,
          [user.id, title],
        );
        await this.catalogue.assertPublished(dto.video_id, tx);
        await tx.query(`INSERT INTO playlist_items (playlist_id, video_id, position) VALUES ($1, $2, 0)`, [playlist.id, dto.video_id]);
        return { data: toPlaylistRef(playlist), error: null };
      }),
    );
  }

  /** Appends a video; a video already there is the primary key's 23505. */
  async addVideo(user: AuthUser, dto: AddToPlaylistDto): Promise<NoErrorDto> {
    assertOwnUser(user.id, dto.playlistUserId);
    await this.ownedPlaylist(user.id, dto.playlist_id);
    await this.videos.assertPublished(dto.video_id);
    await this.mapDuplicate(ALREADY_IN_PLAYLIST, () =>
      this.db.transaction(async (tx) => {
        await this.touch(tx, dto.playlist_id);
        // A fresh snapshot after the lock: it sees every add that committed while this one waited.
        await tx.query(
          `INSERT INTO playlist_items (playlist_id, video_id, position)
           SELECT $1, $2, COALESCE(MAX(position), -1) + 1 FROM playlist_items WHERE playlist_id = $1`,
          [dto.playlist_id, dto.video_id],
        );
      }),
    );
    return { error: null };
  }

  async findOne(user: AuthUser, id: number): Promise<PlaylistVideosDto> {
    const playlist = await this.ownedPlaylist(user.id, id);
    const rows = await this.db.query<VideoCardRow[]>(
      `SELECT ${cardColumns('v')} FROM playlist_items i ${joinVideos('v', 'i.video_id')}
       WHERE i.playlist_id = $1
       ORDER BY ${ITEM_ORDER}`,
      [id],
    );
    return { playlist: toPlaylistRef(playlist), data: await this.videos.cards(rows) };
  }

  async rename(user: AuthUser, id: number, rawTitle: string | undefined): Promise<PlaylistDto> {
    const title = this.checkedTitle(rawTitle);
    await this.ownedPlaylist(user.id, id);
    const [playlist] = await this.mapDuplicate(DUPLICATE_TITLE, () =>
      this.db.query<PlaylistRow[]>(
        `WITH renamed AS (
           UPDATE playlists SET title = $2, updated_at = now() WHERE id = $1 RETURNING id, title, user_id
         ) SELECT * FROM renamed`,
        [id, title],
      ),
    );
    if (!playlist) throw new NotFoundError(PLAYLIST_NOT_FOUND);
    return { playlist: toPlaylistRef(playlist) };
  }

  async remove(user: AuthUser, id: number): Promise<void> {
    await this.ownedPlaylist(user.id, id);
    await this.db.query(`DELETE FROM playlists WHERE id = $1`, [id]);
  }

  async removeVideo(user: AuthUser, id: number, videoId: number): Promise<void> {
    await this.ownedPlaylist(user.id, id);
    const [{ removed }] = await this.db.query<{ removed: number }[]>(
      `WITH removed AS (
         DELETE FROM playlist_items WHERE playlist_id = $1 AND video_id = $2 RETURNING video_id
       ), touched AS (
         UPDATE playlists SET updated_at = now() WHERE id = $1 AND EXISTS (SELECT 1 FROM removed)
       ) SELECT count(*)::int AS removed FROM removed`,
      [id, videoId],
    );
    if (Number(removed) === 0) throw new NotFoundError(NOT_IN_PLAYLIST);
  }

  /** Rewrites every position in one transaction, holding the playlist's lock so no add slips in between. */
  async reorder(user: AuthUser, id: number, videoIds: number[]): Promise<void> {
    await this.ownedPlaylist(user.id, id);
    await this.db.transaction(async (tx) => {
      await this.touch(tx, id);
      const items = await tx.query<{ video_id: number; visible: boolean }[]>(
        `SELECT i.video_id, ${published('v')} AS visible FROM playlist_items i ${joinVideos('v', 'i.video_id', true)}
         WHERE i.playlist_id = $1 ORDER BY ${ITEM_ORDER}`,
        [id],
      );
      const order = reorderedVideoIds(
        items.map((item) => ({ videoId: Number(item.video_id), visible: item.visible })),
        videoIds,
      );
      if (!order) throw new InvalidInputError(NOT_A_PERMUTATION);
      await tx.query(
        `UPDATE playlist_items i SET position = o.ordinal - 1
         FROM unnest($2::int[]) WITH ORDINALITY AS o(video_id, ordinal)
         WHERE i.playlist_id = $1 AND i.video_id = o.video_id`,
        [id, order],
      );
    });
  }

  /** The playlist when the caller owns it: 404 when there is none, 403 when it is someone else's. */
  private async ownedPlaylist(userId: string, id: number): Promise<PlaylistRow> {
    const [playlist] = await this.db.query<PlaylistRow[]>(`SELECT id, title, user_id FROM playlists WHERE id = $1`, [id]);
    if (!playlist) throw new NotFoundError(PLAYLIST_NOT_FOUND);
    if (playlist.user_id !== userId) throw new ForbiddenError(NOT_YOUR_PLAYLIST);
    return playlist;
  }

  /** Marks the playlist changed and takes its row lock until the transaction ends; 404 if it is gone since. */
  private async touch(tx: EntityManager, id: number): Promise<void> {
    const touched = await tx.query<unknown[]>(
      `WITH touched AS (UPDATE playlists SET updated_at = now() WHERE id = $1 RETURNING id) SELECT id FROM touched`,
      [id],
    );
    if (touched.length === 0) throw new NotFoundError(PLAYLIST_NOT_FOUND);
  }

  private checkedTitle(title: string | undefined | null): string {
    const problem = validatePlaylistTitle(title ?? '');
    if (problem) throw new InvalidInputError(problem);
    return normalizePlaylistTitle(title as string);
  }

  /** Runs `work`, answering a unique violation as 409 with the database's code and this message. */
  private async mapDuplicate<T>(message: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(message, PlaylistsErrorCode.AlreadyExists);
      throw error;
    }
  }
}
