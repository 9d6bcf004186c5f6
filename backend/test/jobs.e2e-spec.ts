import { JobRunner } from '../src/jobs/job-runner.service';
import { JobsService } from '../src/jobs/jobs.service';
import { TRENDING_TASK } from '../src/videos/trending.service';
import { insertVideo } from './helpers/factories';
import { createTestApp, type TestApp } from './helpers/test-app';

/** The queue's scheduled-task claims on the real database (PGlite, and the server with TEST_DATABASE_URL). */
describe('scheduled tasks', () => {
  describe('claims', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ INGEST_WORKER: 'false' });
    });
    afterAll(() => t.close());

    it('grants a task once per period, whoever asks', async () => {
      const jobs = t.app.get(JobsService);
      expect(await jobs.claimScheduled('weekly', 7 * 86_400_000)).toBe(true);
      expect(await jobs.claimScheduled('weekly', 7 * 86_400_000)).toBe(false);
      expect(await jobs.claimScheduled('other', 7 * 86_400_000)).toBe(true);
      // Once its period has passed, it is due again.
      await t.db.query(`UPDATE scheduled_tasks SET last_run_at = now() - interval '8 days' WHERE name = 'weekly'`);
      expect(await jobs.claimScheduled('weekly', 7 * 86_400_000)).toBe(true);
    });

    it('grants exactly one of several claims made at once', async () => {
      const jobs = t.app.get(JobsService);
      const granted = await Promise.all(Array.from({ length: 6 }, () => jobs.claimScheduled('race', 60_000)));
      expect(granted.filter(Boolean)).toHaveLength(1);
    });

    it('keeps a postponed job from every claim until its time, with its attempt given back', async () => {
      const jobs = t.app.get(JobsService);
      const id = await jobs.enqueue(await insertVideo(t.db), 'later', {});
      const claimed = await jobs.claim('worker-a');
      expect(claimed).toMatchObject({ id, attempts: 1, state: 'running' });
      await jobs.postpone(id, 'the media store does not answer', 30);
      expect(await jobs.find(id)).toMatchObject({ state: 'queued', attempts: 0, error: 'the media store does not answer' });
      expect(await jobs.claim('worker-b')).toBeNull();
      await t.db.query(`UPDATE ingest_jobs SET not_before = now() - interval '1 second' WHERE id = $1`, [id]);
      expect(await jobs.claim('worker-b')).toMatchObject({ id, attempts: 1 });
    });

    it('does not run the trending recompute in an API process that runs no jobs (INGEST_WORKER=false)', async () => {
      expect(t.app.get(JobRunner).active).toBe(false);
      const rows = await t.db.query(`SELECT name FROM scheduled_tasks WHERE name = $1`, [TRENDING_TASK]);
      expect(rows).toEqual([]);
    });
  });

  it('runs the trending recompute at start in the process that runs jobs, and records the run', async () => {
    const t = await createTestApp({ INGEST_WORKER: 'true' });
    try {
      const [row] = await t.db.query(`SELECT last_run_at FROM scheduled_tasks WHERE name = $1`, [TRENDING_TASK]);
      expect(row).toBeDefined();
      expect(Date.now() - new Date(row.last_run_at).getTime()).toBeLessThan(5 * 60_000);
    } finally {
      await t.close();
    }
  });
});
