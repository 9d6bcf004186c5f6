import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'bookmarks' })
export class Bookmark {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @PrimaryColumn({ name: 'video_id', type: 'integer' })
  videoId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
