import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { JobState } from '../media/ingest-job.entity';
import type { JobDto } from './dto/job.dto';

export const JOB_NOT_FOUND = 'Job not found';
export const ONLY_FAILED_RETRY = 'Only failed jobs can be retried';
/** The admin's job list shows the recent ones; older jobs stay in the table. */
export const JOB_LIST_LIMIT = 200;

interface JobRow {
  id: number;
  video_id: number | null;
  kind: string;
  state: JobState;
  progress: number;
  error: string | null;
}

const JOB_COLUMNS = 'id, video_id, kind, state, progress, error';

/**
 * The admin's view of the ingest jobs: list, look up, retry. The worker that claims and runs them (media's
 * JobsService and JobRunner) picks a retried job up like any queued one.
 */
@Injectable()
export class AdminJobsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(): Promise<{ data: JobDto[] }> {
    const rows = await this.db.query<JobRow[]>(
      `SELECT ${JOB_COLUMNS} FROM ingest_jobs ORDER BY created_at DESC, id DESC LIMIT ${JOB_LIST_LIMIT}`,
    );
    return { data: rows.map(toJob) };
  }

  async findOne(id: number): Promise<{ data: JobDto }> {
    const [row] = await this.db.query<JobRow[]>(`SELECT ${JOB_COLUMNS} FROM ingest_jobs WHERE id = $1`, [id]);
    if (!row) throw new NotFoundException(JOB_NOT_FOUND);
    return { data: toJob(row) };
  }

  /** Queues a failed job again from the start; any other state is a 409. */
  async retry(id: number): Promise<{ error: null }> {
    // A raw UPDATE answers [rows, affected count].
    const [updated] = await this.db.query<[{ id: number }[], number]>(
      `UPDATE ingest_jobs
       SET state = 'queued', progress = 0, error = NULL, attempts = 0, locked_by = NULL, locked_at = NULL,
           started_at = NULL, finished_at = NULL, updated_at = now()
       WHERE id = $1 AND state = 'failed'
       RETURNING id`,
      [id],
    );
    if (updated.length === 0) {
      await this.findOne(id);
      throw new ConflictException(ONLY_FAILED_RETRY);
    }
    return { error: null };
  }
}

function toJob(row: JobRow): JobDto {
  return {
    id: Number(row.id),
    video_id: row.video_id === null ? null : Number(row.video_id),
    kind: row.kind,
    state: row.state,
    progress: Number(row.progress),
    error: row.error,
  };
}
