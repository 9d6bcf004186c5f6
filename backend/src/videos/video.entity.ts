import {
  Column,
  CreateDateColumn,
  Entity,
  JoinTable,
  ManyToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Category } from '../taxonomy/category.entity';
import { Performer } from '../taxonomy/performer.entity';

export type VideoStatus = 'processing' | 'ready' | 'failed';

@Entity({ name: 'videos' })
export class Video {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 200 })
  slug: string;

  /** The source path, e.g. `/2024/06/pool-party.mp4`; its stem names the media folders. */
  @Column({ type: 'varchar', length: 500 })
  url: string;

  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ name: 'atg_title', type: 'varchar', length: 300, default: '' })
  atgTitle: string;

  @Column({ name: 'jtg_title', type: 'varchar', length: 300, default: '' })
  jtgTitle: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  thumbnail: string;

  @Column({ type: 'integer', default: 0 })
  views: number;

  @Column({ type: 'integer', default: 0 })
  likes: number;

  @Column({ type: 'integer', default: 0 })
  featured: number;

  @Column({ type: 'integer', nullable: true })
  duration: number | null;

  @Column({ name: 'upload_date', type: 'timestamptz' })
  uploadDate: Date;

  @Column({ type: 'smallint', default: 1 })
  cdn: number;

  @Column({ type: 'varchar', length: 16, default: 'ready' })
  status: VideoStatus;

  /** True once the pipeline has written the poster, storyboard and hover preview under `/thumbs/{stem}/`. */
  @Column({ name: 'media_ready', type: 'boolean', default: false })
  mediaReady: boolean;

  /** Views of the last 7 days with a daily decay, materialized by `TrendingService` for the trending sort. */
  @Column({ name: 'trending_score', type: 'double precision', default: 0 })
  trendingScore: number;

  @Column({ type: 'integer', nullable: true })
  width: number | null;

  @Column({ type: 'integer', nullable: true })
  height: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @ManyToMany(() => Category)
  @JoinTable({
    name: 'video_categories',
    joinColumn: { name: 'video_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'category_id', referencedColumnName: 'id' },
  })
  categories: Category[];

  @ManyToMany(() => Performer)
  @JoinTable({
    name: 'video_performers',
    joinColumn: { name: 'video_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'performer_id', referencedColumnName: 'id' },
  })
  performers: Performer[];
}
