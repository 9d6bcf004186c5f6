import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'watch_later_items' })
export class WatchLaterItem {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @PrimaryColumn({ name: 'video_id', type: 'integer' })
  videoId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
