import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each task that must run once per deployment (the trending recompute) last ran: the process that runs
 * jobs claims a run with one upsert, so that several workers run it once between them, not once each.
 */
export class ScheduledTasks1795000000000 implements MigrationInterface {
  name = 'ScheduledTasks1795000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scheduled_tasks (
        name varchar(64) PRIMARY KEY,
        last_run_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS scheduled_tasks');
  }
}
