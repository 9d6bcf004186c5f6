import { CreateDateColumn, PrimaryColumn } from 'typeorm';

/** A video in one user's list, once: the columns bookmarks, watch-later items and likes share. */
export abstract class UserVideoEntry {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @PrimaryColumn({ name: 'video_id', type: 'integer' })
  videoId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
