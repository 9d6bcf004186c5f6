import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Views and likes of one video on one day: the source of the trending ranking. */
@Entity({ name: 'video_daily_stats' })
export class VideoDailyStat {
  @PrimaryColumn({ name: 'video_id', type: 'integer' })
  videoId: number;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ type: 'integer', default: 0 })
  views: number;

  @Column({ type: 'integer', default: 0 })
  likes: number;
}
