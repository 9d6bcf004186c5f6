import { Module } from '@nestjs/common';
import { JobRunner } from './job-runner.service';
import { JobsService } from './jobs.service';

/**
 * The durable job queue and its runner. Owns `ingest_jobs` and `scheduled_tasks`; the modules that own the work
 * register a handler per job kind (media: ingest) and their scheduled tasks (videos: trending) at start-up.
 */
@Module({
  providers: [JobsService, JobRunner],
  exports: [JobsService, JobRunner],
})
export class JobsModule {}
