import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * A member's likes (`likes`, owned by the lists module): the counters record a member's like here, the lists
 * read them as "Liked videos". Needs only the database, so that the counters can use it without the lists' API.
 */
@Injectable()
export class LikesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Records the member's like; false when they already like the video (the table keeps it unique). */
  async add(userId: string, videoId: number): Promise<boolean> {
    const inserted = await this.db.query<{ video_id: number }[]>(
      `INSERT INTO likes (user_id, video_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING video_id`,
      [userId, videoId],
    );
    return inserted.length > 0;
  }
}
