import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per user and video: watching again moves `watchedAt` to now. */
@Entity({ name: 'history_entries' })
export class HistoryEntry {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @PrimaryColumn({ name: 'video_id', type: 'integer' })
  videoId: number;

  @Column({ name: 'watched_at', type: 'timestamptz' })
  watchedAt: Date;

  /** Where playback stopped, for resume. */
  @Column({ name: 'position_seconds', type: 'integer', nullable: true })
  positionSeconds: number | null;
}
