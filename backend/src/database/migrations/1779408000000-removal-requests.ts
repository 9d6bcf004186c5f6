import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Content removal requests from the public form, kept after they are closed (what was asked, when, and what
 * was done). The video ids are not foreign keys: deleting the video is often the outcome, and the record stays.
 */
export class RemovalRequests1779408000000 implements MigrationInterface {
  name = 'RemovalRequests1779408000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE removal_requests (
        id serial PRIMARY KEY,
        video_ids integer[] NOT NULL CHECK (cardinality(video_ids) BETWEEN 1 AND 20),
        reason varchar(16) NOT NULL CHECK (reason IN ('underage', 'no-consent', 'illegal', 'copyright', 'other')),
        details text NOT NULL DEFAULT '',
        contact varchar(200) NOT NULL,
        state varchar(16) NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved', 'dismissed')),
        created_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz NULL,
        closed_by uuid NULL REFERENCES users (id) ON DELETE SET NULL,
        CHECK ((state = 'open') = (closed_at IS NULL))
      )`);
    await q.query(`CREATE INDEX removal_requests_open_idx ON removal_requests (created_at, id) WHERE state = 'open'`);
    await q.query(`CREATE INDEX removal_requests_closed_idx ON removal_requests (closed_at DESC, id DESC) WHERE state <> 'open'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS removal_requests');
  }
}
