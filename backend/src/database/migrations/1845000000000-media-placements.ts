import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Moving media between the disk and a bucket (issue #32, point 5): the store each moved video's folders are read
 * from, written by `npm run media:migrate` once every object of the video is copied and verified. A video with
 * no row is in MEDIA_STORE's store. Expand only: a new table older processes never read.
 */
export class MediaPlacements1845000000000 implements MigrationInterface {
  name = 'MediaPlacements1845000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE media_placements (
        stem text PRIMARY KEY,
        store text NOT NULL CHECK (store IN ('disk', 's3')),
        placed_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE media_placements');
  }
}
