import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admins' site dashboard (issue #15, README › "Dashboard"). New members per day and finished ingest jobs per
 * day are read by range on their own indexes; the rankings (top videos, busiest categories and performers of the
 * day and of the week) would sum hundreds of thousands of per-day rows, so a scheduled task computes them every
 * few minutes into `site_rankings`, one row per period, and the dashboard reads those rows.
 */
export class SiteDashboard1830000000000 implements MigrationInterface {
  name = 'SiteDashboard1830000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX users_created_idx ON users (created_at)');
    await q.query(`CREATE INDEX ingest_jobs_finished_idx ON ingest_jobs (finished_at) WHERE state IN ('done', 'failed')`);
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
    await q.query('DROP INDEX IF EXISTS users_created_idx');
  }
}
