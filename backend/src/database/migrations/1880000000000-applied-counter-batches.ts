import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The counters' batches already added to the database, by id (docs/operating.md › Outages, "A flush cut in the middle"): a
 * batch whose write committed but whose removal from the buffer did not happen (Redis gone, the process killed, the
 * commit's answer lost) is written again by the next flush, and must then change nothing. Kept for 7 days.
 */
export class AppliedCounterBatches1880000000000 implements MigrationInterface {
  name = 'AppliedCounterBatches1880000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE applied_counter_batches (
        id text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX applied_counter_batches_applied_at_idx ON applied_counter_batches (applied_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE applied_counter_batches');
  }
}
