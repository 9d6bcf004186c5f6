import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { JobRow, JobState } from './job-types';
import { lastDays } from '../common/utils/last-days';

export type { JobRow, JobState };

export interface JobOutcomes {
  /** By day (`YYYY-MM-DD`), every day of the period. */
  daily: Map<string, { created: number; done: number; failed: number }>;
  queued: number;
  running: number;
  /** Seconds of video processed by the period's done jobs that recorded it, and their seconds of processing. */
  mediaSeconds: number;
  processingSeconds: number;
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
    return this.insert(manager, videoId, kind, payload, null);
  }

  /** Keeps a queued job from every worker until `release` (an upload kept in a spool, not yet in the store). */
  async hold(jobId: number, reason: string, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.query(`UPDATE ingest_jobs SET not_before = 'infinity', error = $2, updated_at = now() WHERE id = $1 AND state = 'queued'`, [jobId, reason]);
  }

  /** Lets a held job be claimed now; false when it is gone (its video was deleted meanwhile). */
  async release(jobId: number): Promise<boolean> {
    const [rows] = await this.db.query<[{ id: number }[], number]>(
      `UPDATE ingest_jobs SET not_before = NULL, error = NULL, updated_at = now() WHERE id = $1 AND state = 'queued' RETURNING id`,
      [jobId],
    );
    return rows.length > 0;
  }

  /** Queues a job that no worker claims before `seconds` from now (a sweep after the links given have expired). */
  async enqueueLater(videoId: number, kind: string, payload: Record<string, unknown>, seconds: number): Promise<number> {
    return this.insert(this.db.manager, videoId, kind, payload, seconds);
  }

  /** A queued job; `afterSeconds` null: claimable at once. */
  private async insert(manager: EntityManager, videoId: number, kind: string, payload: Record<string, unknown>, afterSeconds: number | null): Promise<number> {
    const [{ id }] = await manager.query<{ id: number }[]>(
      `INSERT INTO ingest_jobs (video_id, kind, payload, not_before)
       VALUES ($1, $2, $3::jsonb, now() + make_interval(secs => $4::float8)) RETURNING id`,
      [videoId, kind, JSON.stringify(payload), afterSeconds],
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
         WHERE (state = 'queued' AND (not_before IS NULL OR not_before <= now()))
            OR (state = 'running' AND locked_at < now() - make_interval(secs => $2))
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

  /**
   * `mediaSeconds`: the seconds of video it processed, when it processed video; then its seconds of processing
   * (first start to now) are kept beside them (see `outcomes`).
   */
  async complete(id: number, mediaSeconds?: number): Promise<void> {
    const seconds = mediaSeconds !== undefined && Number.isFinite(mediaSeconds) && mediaSeconds >= 0.5 ? Math.round(mediaSeconds) : null;
    await this.db.query(
      `UPDATE ingest_jobs SET state = 'done', progress = 100, error = NULL, locked_by = NULL, locked_at = NULL,
              finished_at = now(), updated_at = now(), media_seconds = $2,
              processing_seconds = CASE WHEN $2::int IS NULL THEN NULL ELSE GREATEST(0, round(extract(epoch FROM now() - COALESCE(started_at, now()))))::int END
       WHERE id = $1`,
      [id, seconds],
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

  /**
   * An attempt that could not start its work because something it needs does not answer (the media store): queued
   * again after `seconds`, its attempt given back, so that an outage of any length fails no job.
   */
  async postpone(id: number, error: string, seconds: number): Promise<void> {
    await this.db.query(
      `UPDATE ingest_jobs SET state = 'queued', attempts = GREATEST(attempts - 1, 0), error = $2, progress = 0,
              locked_by = NULL, locked_at = NULL, updated_at = now(), not_before = now() + make_interval(secs => $3)
       WHERE id = $1`,
      [id, error.slice(0, 2000), seconds],
    );
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
   * created and how many finished done or failed for good; the ones waiting or running now; and over the done
   * ones that recorded the video they processed, the seconds of video and of processing (first start to end).
   */
  async outcomes(kind: string, days: number): Promise<JobOutcomes> {
    // One index range per day, over covering indexes.
    const [perDay, [pending]] = await Promise.all([
      this.db.query<{ day: string; created: number; done: number; failed: number; media: number; took: number }[]>(
        `SELECT to_char(x.d, 'YYYY-MM-DD') AS day,
                (SELECT count(*) FROM ingest_jobs c WHERE c.kind = $1 AND c.created_at >= x.d AND c.created_at < x.d + 1)::int AS created,
                f.done, f.failed, f.media, f.took
         FROM ${lastDays('$2')}, LATERAL (
           SELECT count(*) FILTER (WHERE state = 'done')::int AS done, count(*) FILTER (WHERE state = 'failed')::int AS failed,
                  COALESCE(sum(media_seconds), 0)::bigint AS media, COALESCE(sum(processing_seconds), 0)::bigint AS took
           FROM ingest_jobs WHERE kind = $1 AND state IN ('done', 'failed') AND finished_at >= x.d AND finished_at < x.d + 1
         ) f`,
        [kind, days],
      ),
      this.db.query<{ queued: number; running: number }[]>(
        `SELECT count(*) FILTER (WHERE state = 'queued')::int AS queued, count(*) FILTER (WHERE state = 'running')::int AS running
         FROM ingest_jobs WHERE kind = $1 AND state IN ('queued', 'running')`,
        [kind],
      ),
    ]);
    return {
      daily: new Map(perDay.map((row) => [row.day, { created: Number(row.created), done: Number(row.done), failed: Number(row.failed) }])),
      queued: Number(pending.queued),
      running: Number(pending.running),
      mediaSeconds: perDay.reduce((sum, row) => sum + Number(row.media), 0),
      processingSeconds: perDay.reduce((sum, row) => sum + Number(row.took), 0),
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
