import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statistics for admins (issue #15). `video_daily_stats.views` holds the trending signals of each day (what the
 * trending sort weighs); a day's counted views get their own column beside them, written by the same counter
 * flush. `site_daily_stats` adds each day's views and likes up for the whole site in that flush too, so that
 * the dashboard reads one row per day rather than summing every video's rows.
 */
export class VideoStatistics1825000000000 implements MigrationInterface {
  name = 'VideoStatistics1825000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE video_daily_stats ADD COLUMN counted_views integer NOT NULL DEFAULT 0 CHECK (counted_views >= 0)');
    await q.query(`
      CREATE TABLE site_daily_stats (
        day date PRIMARY KEY,
        views bigint NOT NULL DEFAULT 0 CHECK (views >= 0),
        likes bigint NOT NULL DEFAULT 0 CHECK (likes >= 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS site_daily_stats');
    await q.query('ALTER TABLE video_daily_stats DROP COLUMN IF EXISTS counted_views');
  }
}
