import type { PlaylistRefDto, PlaylistSummaryDto } from './dto/playlist.dto';

export interface PlaylistRow {
  id: number;
  title: string;
  user_id: string;
}

export interface PlaylistSummaryRow extends PlaylistRow {
  video_count: number;
  thumbnail: string | null;
}

export function toPlaylistRef(row: PlaylistRow): PlaylistRefDto {
  return { playlist_id: Number(row.id), title: row.title, user_id: row.user_id };
}

export function toPlaylistSummary(row: PlaylistSummaryRow): PlaylistSummaryDto {
  return { ...toPlaylistRef(row), video_count: Number(row.video_count), thumbnail: row.thumbnail };
}
