import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Continue watching (issue #16) reads a member's history entries that hold a resume position, newest first. A
 * partial index keeps that read to the few such entries however long the history grows.
 */
export class ContinueWatching1820000000000 implements MigrationInterface {
  name = 'ContinueWatching1820000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX history_entries_resumable_idx ON history_entries (user_id, watched_at DESC, video_id DESC)
       WHERE position_seconds IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS history_entries_resumable_idx');
  }
}
