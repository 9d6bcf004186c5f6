import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job can wait without spending an attempt (issue #32, point 6): an ingest whose media store cannot be
 * reached is queued again for later (`not_before`), however long the outage, rather than failed after three quick
 * tries. Expand only: a nullable column that older processes do not read (they claim such a job at once, as before).
 */
export class JobNotBefore1835000000000 implements MigrationInterface {
  name = 'JobNotBefore1835000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ingest_jobs ADD COLUMN not_before timestamptz NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ingest_jobs DROP COLUMN not_before');
  }
}
