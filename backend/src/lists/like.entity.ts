import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'likes' })
export class Like {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @PrimaryColumn({ name: 'video_id', type: 'integer' })
  videoId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
