import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A video's chapters (issue #34, point 4): `[{start, title}]`, whole seconds in ascending order, at most 50,
 * written by update-video (which validates each) and read with the video. A JSON array on the row: chapters are
 * read and written whole with their video and never queried on their own.
 */
export class VideoChapters1855000000000 implements MigrationInterface {
  name = 'VideoChapters1855000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE videos ADD COLUMN chapters jsonb NOT NULL DEFAULT '[]'::jsonb
        CONSTRAINT videos_chapters_check CHECK (jsonb_typeof(chapters) = 'array' AND jsonb_array_length(chapters) <= 50)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE videos DROP COLUMN chapters');
  }
}
