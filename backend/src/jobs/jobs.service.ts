import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { JobRow, JobState } from './job-types';

export type { JobRow, JobState };

export interface JobOutcomes {
  daily: { day: string; created: number; done: number; failed: number }[];
  queued: number;
  running: number;
  /** Each job done in the period: its video and its seconds from first start to end. */
  finished: { videoId: number; seconds: number }[];
}

export const MAX_ATTEMPTS = 3;
/** A running job whose worker has not reported for this long is taken to be orphaned and runs again. */
export const STALE_LOCK_SECONDS = 120;

const JOB_COLUMNS = 'id, video_id, kind, state, progress, error, attempts, payload';

/**
 * The owner of `ingest_jobs` (every job kind, despite the name) and `scheduled_tasks`: the durable queue, in the
 * database so that jobs survive restarts, and the claims of tasks that run once per deployment.
 */
@Injectable()
export class JobsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async enqueue(videoId: number, kind: string, payload: Record<string, unknown>, manager: EntityManager = this.db.manager): Promise<number> {
    const [{ id }] = await manager.query<{ id: number }[]>(
      `INSERT INTO ingest_jobs (video_id, kind, payload) VALUES ($1, $2, $3::jsonb) RETURNING id`,
      [videoId, kind, JSON.stringify(payload)],
    );
    return Number(id);
  }

  /**
   * Takes the oldest queued job, or a running one whose worker went quiet, for `worker`. SKIP LOCKED lets
   * several workers claim at once without taking the same job.
   */
  async claim(worker: string): Promise<JobRow | null> {
    const [rows] = await this.db.query<[JobRow[], number]>(
      `UPDATE ingest_jobs SET state = 'running', locked_by = $1, locked_at = now(), updated_at = now(),
              started_at = COALESCE(started_at, now()), attempts = attempts + 1, progress = 0
       WHERE id = (
         SELECT id FROM ingest_jobs
         WHERE state = 'queued' OR (state = 'running' AND locked_at < now() - make_interval(secs => $2))
         ORDER BY created_at, id
         LIMIT 1 FOR UPDATE SKIP LOCKED
       )
       RETURNING ${JOB_COLUMNS}`,
      [worker, STALE_LOCK_SECONDS],
    );
    return rows[0] ?? null;
  }

  /** Reports progress and keeps the claim alive. */
  async progress(id: number, worker: string, percent: number): Promise<void> {
    await this.db.query(
      `UPDATE ingest_jobs SET progress = $3, locked_at = now(), updated_at = now() WHERE id = $1 AND locked_by = $2 AND state = 'running'`,
      [id, worker, Math.max(0, Math.min(100, Math.floor(percent)))],
    );
  }

  async complete(id: number): Promise<void> {
    await this.db.query(
      `UPDATE ingest_jobs SET state = 'done', progress = 100, error = NULL, locked_by = NULL, locked_at = NULL,
              finished_at = now(), updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  /**
   * A failed attempt: queued again while attempts remain, else failed for good; `giveUp` fails it for good at
   * once. Returns the new state.
   */
  async fail(id: number, error: string, giveUp = false): Promise<JobState> {
    const [[row]] = await this.db.query<[{ state: JobState }[], number]>(
      `UPDATE ingest_jobs SET state = CASE WHEN attempts < $3 THEN 'queued' ELSE 'failed' END, error = $2,
              locked_by = NULL, locked_at = NULL, updated_at = now(),
              finished_at = CASE WHEN attempts < $3 THEN NULL ELSE now() END
       WHERE id = $1 RETURNING state`,
      [id, error.slice(0, 2000), giveUp ? 0 : MAX_ATTEMPTS],
    );
    return row?.state ?? 'failed';
  }

  /** The most recent jobs, newest first. */
  recent(limit: number): Promise<JobRow[]> {
    return this.db.query(`SELECT ${JOB_COLUMNS} FROM ingest_jobs ORDER BY created_at DESC, id DESC LIMIT $1`, [limit]);
  }

  async find(id: number): Promise<JobRow | null> {
    const [row] = await this.db.query<JobRow[]>(`SELECT ${JOB_COLUMNS} FROM ingest_jobs WHERE id = $1`, [id]);
    return row ?? null;
  }

  /** Queues a failed job again from the start, with its attempts reset; false when it is not failed. */
  async retryFailed(id: number): Promise<boolean> {
    const [updated] = await this.db.query<[{ id: number }[], number]>(
      `UPDATE ingest_jobs
       SET state = 'queued', progress = 0, error = NULL, attempts = 0, locked_by = NULL, locked_at = NULL,
           started_at = NULL, finished_at = NULL, updated_at = now()
       WHERE id = $1 AND state = 'failed'
       RETURNING id`,
      [id],
    );
    return updated.length > 0;
  }

  /**
   * Jobs of `kind` over the last `days` (today included, the database's calendar): per day, how many were
   * created and how many finished done or failed for good; the ones waiting or running now; and for each job
   * done in the period, its video and how long it took from its first start to its end.
   */
  async outcomes(kind: string, days: number): Promise<JobOutcomes> {
    const since = 'CURRENT_DATE - ($2::int - 1)';
    const [daily, [pending], finished] = await Promise.all([
      this.db.query<{ day: string; created: number; done: number; failed: number }[]>(
        `SELECT to_char(d, 'YYYY-MM-DD') AS day, COALESCE(c.n, 0)::int AS created, COALESCE(f.done, 0)::int AS done, COALESCE(f.failed, 0)::int AS failed
         FROM generate_series(${since}, CURRENT_DATE, interval '1 day') AS d
         LEFT JOIN (SELECT created_at::date AS day, count(*) AS n FROM ingest_jobs WHERE kind = $1 AND created_at >= ${since} GROUP BY 1) c ON c.day = d::date
         LEFT JOIN (SELECT finished_at::date AS day, count(*) FILTER (WHERE state = 'done') AS done, count(*) FILTER (WHERE state = 'failed') AS failed
                    FROM ingest_jobs WHERE kind = $1 AND state IN ('done', 'failed') AND finished_at >= ${since} GROUP BY 1) f ON f.day = d::date
         ORDER BY d`,
        [kind, days],
      ),
      this.db.query<{ queued: number; running: number }[]>(
        `SELECT count(*) FILTER (WHERE state = 'queued')::int AS queued, count(*) FILTER (WHERE state = 'running')::int AS running
         FROM ingest_jobs WHERE kind = $1 AND state IN ('queued', 'running')`,
        [kind],
      ),
      this.db.query<{ video_id: number; seconds: number }[]>(
        `SELECT video_id, extract(epoch FROM finished_at - started_at)::float8 AS seconds FROM ingest_jobs
         WHERE kind = $1 AND state = 'done' AND finished_at >= ${since} AND started_at IS NOT NULL AND video_id IS NOT NULL`,
        [kind, days],
      ),
    ]);
    return {
      daily,
      queued: Number(pending.queued),
      running: Number(pending.running),
      finished: finished.map((row) => ({ videoId: Number(row.video_id), seconds: Math.max(0, Number(row.seconds)) })),
    };
  }

  /** Running jobs and who holds them. */
  async running(): Promise<{ id: number; locked_by: string | null }[]> {
    return this.db.query(`SELECT id, locked_by FROM ingest_jobs WHERE state = 'running'`);
  }

  /** Queues these running jobs again at once (their worker is known to be dead). */
  async requeue(ids: number[]): Promise<void> {
    if (ids.length) {
      await this.db.query(
        `UPDATE ingest_jobs SET state = 'queued', locked_by = NULL, locked_at = NULL, updated_at = now() WHERE id = ANY($1::int[]) AND state = 'running'`,
        [ids],
      );
    }
  }

  /** After a restart of the only process (embedded mode), its running jobs are orphans: queue them again now. */
  async requeueRunning(): Promise<number> {
    const [, count] = await this.db.query<[unknown[], number]>(
      `UPDATE ingest_jobs SET state = 'queued', locked_by = NULL, locked_at = NULL, updated_at = now() WHERE state = 'running'`,
    );
    return Number(count ?? 0);
  }

  /**
   * Claims the scheduled task `name` for this run when its last run is at least `everyMs` ago (or it never ran):
   * one atomic upsert, so that of several workers asking at once exactly one gets it.
   */
  async claimScheduled(name: string, everyMs: number): Promise<boolean> {
    const rows = await this.db.query<{ name: string }[]>(
      `WITH claimed AS (
         INSERT INTO scheduled_tasks (name, last_run_at) VALUES ($1, now())
         ON CONFLICT (name) DO UPDATE SET last_run_at = now()
         WHERE scheduled_tasks.last_run_at <= now() - make_interval(secs => $2)
         RETURNING name
       ) SELECT name FROM claimed`,
      [name, everyMs / 1000],
    );
    return rows.length > 0;
  }
}
