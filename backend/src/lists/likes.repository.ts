import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MemberLikes } from '../videos/counters/member-likes';

/**
 * A member's likes (`likes`, owned by the lists module): the counters record a member's like here, the lists
 * read them as "Liked videos". Needs only the database, so that the counters can use it without the lists' API.
 */
@Injectable()
export class LikesRepository implements MemberLikes {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Records the member's like; false when they already like the video (the table keeps it unique). */
  async add(userId: string, videoId: number): Promise<boolean> {
    const inserted = await this.db.query<{ video_id: number }[]>(
      `INSERT INTO likes (user_id, video_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING video_id`,
      [userId, videoId],
    );
    return inserted.length > 0;
  }

  /** Takes the member's like back; false when they did not like the video. */
  async remove(userId: string, videoId: number): Promise<boolean> {
    // A SELECT over the deleted rows: TypeORM answers a bare DELETE with [rows, count], not the rows.
    const deleted = await this.db.query<{ video_id: number }[]>(
      `WITH gone AS (DELETE FROM likes WHERE user_id = $1 AND video_id = $2 RETURNING video_id) SELECT video_id FROM gone`,
      [userId, videoId],
    );
    return deleted.length > 0;
  }
}
