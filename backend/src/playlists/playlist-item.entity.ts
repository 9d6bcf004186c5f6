import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'playlist_items' })
export class PlaylistItem {
  @PrimaryColumn({ name: 'playlist_id', type: 'integer' })
  playlistId: number;

  @PrimaryColumn({ name: 'video_id', type: 'integer' })
  videoId: number;

  @Column({ type: 'integer' })
  position: number;

  @CreateDateColumn({ name: 'added_at', type: 'timestamptz' })
  addedAt: Date;
}
