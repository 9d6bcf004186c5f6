import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { isDependencyDown } from '../common/errors/dependency-errors';
import { JobRunner } from '../jobs/job-runner.service';
import { JobsService } from '../jobs/jobs.service';
import { STORE_RETRY_SECONDS } from './ingest.service';
import { StorageService } from './storage.service';

/**
 * Uploads accepted while the bucket could not be reached (or was lost mid-upload): kept in this server's spool
 * (DATA_DIR/spool, a manifest beside each file), their ingest jobs held. Every STORE_RETRY_SECONDS, and at start
 * for what a previous run left, each is sent again from its first byte (a new multipart upload: the bucket
 * never publishes a part of one) and, once the bucket has it whole, its job is released to the workers and the
 * spool forgets it. docs/operating.md › "Media in a bucket".
 */
@Injectable()
export class UploadSpool implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(UploadSpool.name);
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<number>;

  constructor(
    private readonly storage: StorageService,
    private readonly jobs: JobsService,
    private readonly runner: JobRunner,
  ) {}

  onModuleInit(): void {
    if (this.storage.store.driver !== 's3') return;
    this.timer = setInterval(() => void this.flush(), STORE_RETRY_SECONDS * 1000);
    this.timer.unref();
    void this.flush();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Sends what the spool holds; answers how many were sent. Concurrent calls share one pass. */
  flush(): Promise<number> {
    this.flushing ??= this.pass().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async pass(): Promise<number> {
    let sent = 0;
    for (const entry of await this.storage.spooled()) {
      try {
        await this.storage.sendSpooled(entry);
      } catch (error) {
        if (isDependencyDown(error)) return sent; // still out of reach: the rest waits with it
        this.logger.error(`The spooled upload of job ${entry.jobId} could not be sent: ${(error as Error).message}`);
        continue;
      }
      try {
        // Not released: already taken (another pass sent it before), or gone with its video, whose source goes too.
        if (!(await this.jobs.release(entry.jobId)) && !(await this.jobs.find(entry.jobId))) {
          await this.storage.store.remove(entry.key).catch(() => undefined);
        }
      } catch (error) {
        // The database is out of reach: the object is in the bucket; the next pass sends it again, harmlessly.
        if (isDependencyDown(error)) return sent;
        throw error;
      }
      await this.storage.dropSpooled(entry.jobId);
      sent++;
      this.logger.log(`Sent the spooled upload of job ${entry.jobId} (video ${entry.videoId}) to the media store`);
    }
    if (sent) this.runner.poke();
    return sent;
  }
}
