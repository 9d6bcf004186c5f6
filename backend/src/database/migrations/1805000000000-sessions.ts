import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per signed-in session: a token names its session (`sid`), and a token whose session is gone is
 * refused, so that logging out or an admin's reset ends sessions before their tokens expire. Tokens issued
 * before this migration name no session and are refused: everyone signs in once more.
 */
export class Sessions1805000000000 implements MigrationInterface {
  name = 'Sessions1805000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX sessions_user_idx ON sessions (user_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS sessions');
  }
}
