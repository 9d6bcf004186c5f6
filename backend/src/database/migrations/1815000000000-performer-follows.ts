import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Members follow performers (issue #16): one row per member and performer, gone with either. The member's list
 * reads by member (the primary key); a performer's rename cascades its id here as it does in video_performers.
 */
export class PerformerFollows1815000000000 implements MigrationInterface {
  name = 'PerformerFollows1815000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE performer_follows (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        performer_id varchar(100) NOT NULL REFERENCES performers (id) ON DELETE CASCADE ON UPDATE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, performer_id)
      )`);
    // A performer's deletion finds its followers without a scan.
    await q.query('CREATE INDEX performer_follows_performer_idx ON performer_follows (performer_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS performer_follows');
  }
}
