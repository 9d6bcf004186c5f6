import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Repeated removal requests fold into the open one they repeat (same reason, videos it already names) instead of
 * adding rows: a request counts its reports, how many senders they came from and when the last came. Senders are
 * told apart by a keyed hash of their network (`reporter_keys`, at most 1000 kept; `filed_by` is the first one),
 * never by their address itself. Requests filed before this migration count as one report from one sender.
 */
export class RemovalRequestReports1810000000000 implements MigrationInterface {
  name = 'RemovalRequestReports1810000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE removal_requests
        ADD COLUMN reports integer NOT NULL DEFAULT 1,
        ADD COLUMN reporters integer NOT NULL DEFAULT 1,
        ADD COLUMN reporter_keys varchar(16)[] NOT NULL DEFAULT '{}',
        ADD COLUMN filed_by varchar(16) NULL,
        ADD COLUMN last_reported_at timestamptz NULL,
        ADD CONSTRAINT removal_requests_reports_check CHECK (reporters >= 1 AND reporters <= reports),
        ADD CONSTRAINT removal_requests_reporter_keys_check CHECK (cardinality(reporter_keys) <= 1000)`);
    await q.query('UPDATE removal_requests SET last_reported_at = created_at');
    await q.query('ALTER TABLE removal_requests ALTER COLUMN last_reported_at SET NOT NULL, ALTER COLUMN last_reported_at SET DEFAULT now()');
    // A new request is looked up among the open ones of its reason that name all its videos.
    await q.query(`CREATE INDEX removal_requests_open_videos_idx ON removal_requests USING gin (video_ids) WHERE state = 'open'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS removal_requests_open_videos_idx');
    await q.query(`
      ALTER TABLE removal_requests
        DROP CONSTRAINT IF EXISTS removal_requests_reporter_keys_check,
        DROP CONSTRAINT IF EXISTS removal_requests_reports_check,
        DROP COLUMN IF EXISTS last_reported_at,
        DROP COLUMN IF EXISTS filed_by,
        DROP COLUMN IF EXISTS reporter_keys,
        DROP COLUMN IF EXISTS reporters,
        DROP COLUMN IF EXISTS reports`);
  }
}
