import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admins' site dashboard (issue #15, docs/decisions.md › "Dashboard"). New members per day and finished ingest jobs per
 * day are read by range on their own indexes; the rankings (top videos, busiest categories and performers of the
 * day and of the week) would sum hundreds of thousands of per-day rows, so a scheduled task computes them every
 * few minutes into `site_rankings`, one row per period, and the dashboard reads those rows. A finished ingest
 * records the seconds of video it processed and its seconds of processing (`media_seconds`, `processing_seconds`;
 * earlier ones take their video's duration and their own times), so that the processing time per minute of video
 * is a sum over a covering index rather than a lookup of each video.
 */
export class SiteDashboard1830000000000 implements MigrationInterface {
  name = 'SiteDashboard1830000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX users_created_idx ON users (created_at)');
    await q.query(`
      ALTER TABLE ingest_jobs
        ADD COLUMN media_seconds integer NULL CHECK (media_seconds > 0),
        ADD COLUMN processing_seconds integer NULL CHECK (processing_seconds >= 0)`);
    await q.query(`
      UPDATE ingest_jobs j SET media_seconds = v.duration,
             processing_seconds = GREATEST(0, round(extract(epoch FROM j.finished_at - j.started_at)))::int
      FROM videos v
      WHERE v.id = j.video_id AND j.kind = 'ingest' AND j.state = 'done' AND v.duration > 0
        AND j.started_at IS NOT NULL AND j.finished_at IS NOT NULL`);
    await q.query('CREATE INDEX ingest_jobs_kind_created_idx ON ingest_jobs (kind, created_at)');
    await q.query(`
      CREATE INDEX ingest_jobs_finished_idx ON ingest_jobs (kind, finished_at) INCLUDE (state, media_seconds, processing_seconds)
      WHERE state IN ('done', 'failed')`);
    await q.query(`
      CREATE TABLE site_rankings (
        period varchar(8) PRIMARY KEY CHECK (period IN ('day', 'week')),
        computed_at timestamptz NOT NULL DEFAULT now(),
        videos jsonb NOT NULL DEFAULT '[]'::jsonb,
        categories jsonb NOT NULL DEFAULT '[]'::jsonb,
        performers jsonb NOT NULL DEFAULT '[]'::jsonb
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS site_rankings');
    await q.query('DROP INDEX IF EXISTS ingest_jobs_finished_idx');
    await q.query('DROP INDEX IF EXISTS ingest_jobs_kind_created_idx');
    await q.query('ALTER TABLE ingest_jobs DROP COLUMN IF EXISTS processing_seconds, DROP COLUMN IF EXISTS media_seconds');
    await q.query('DROP INDEX IF EXISTS users_created_idx');
  }
}
