import { Injectable } from '@nestjs/common';
import { JobRunner } from '../jobs/job-runner.service';
import { JobsService, type JobRow } from '../jobs/jobs.service';
import type { JobDto } from './dto/job.dto';
import { ConflictError, NotFoundError } from '../common/errors/domain-errors';

export const JOB_NOT_FOUND = 'Job not found';
export const ONLY_FAILED_RETRY = 'Only failed jobs can be retried';
/** The admin's job list shows the recent ones; older jobs stay in the table. */
export const JOB_LIST_LIMIT = 200;

/** The admin's view of the ingest jobs (media's JobsService keeps the queue): list, look up, retry. */
@Injectable()
export class AdminJobsService {
  constructor(
    private readonly jobs: JobsService,
    private readonly runner: JobRunner,
  ) {}

  async list(): Promise<{ data: JobDto[] }> {
    return { data: (await this.jobs.recent(JOB_LIST_LIMIT)).map(toJob) };
  }

  async findOne(id: number): Promise<{ data: JobDto }> {
    const row = await this.jobs.find(id);
    if (!row) throw new NotFoundError(JOB_NOT_FOUND);
    return { data: toJob(row) };
  }

  /** Queues a failed job again from the start; any other state is a 409. */
  async retry(id: number): Promise<{ error: null }> {
    if (!(await this.jobs.retryFailed(id))) {
      await this.findOne(id);
      throw new ConflictError(ONLY_FAILED_RETRY);
    }
    this.runner.poke();
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
