import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { isServer } from '../database/data-source';
import { INGEST_KIND, IngestService, type IngestPayload } from './ingest.service';
import { JobsService, type JobRow } from './jobs.service';

const IDLE_POLL_MS = 1000;

/**
 * Runs ingest jobs one at a time (transcoding takes every core there is): inside the API in embedded mode,
 * in `npm run worker` in the container stack. A job is a handler that takes an id and ends done, queued again
 * for another attempt, or failed.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  readonly worker = `${hostname()}:${process.pid}:${Date.now().toString(36)}`;
  private stopped = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private current?: AbortController;

  constructor(
    private readonly jobs: JobsService,
    private readonly ingest: IngestService,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.ingestWorker) await this.start();
  }

  async start(): Promise<void> {
    const orphans = await this.requeueOrphans();
    if (orphans) this.logger.warn(`Resuming ${orphans} interrupted ingest job(s)`);
    this.stopped = false;
    this.loop ??= this.run();
  }

  /**
   * Jobs left running by a worker that died: on the embedded database every running job (this process is the
   * only worker there is); on a server, those of a dead process on this host. Others are taken over once their
   * claim goes stale.
   */
  private async requeueOrphans(): Promise<number> {
    if (!isServer(this.db)) return this.jobs.requeueRunning();
    const host = `${hostname()}:`;
    const dead = (await this.jobs.running()).filter((job) => {
      if (!job.locked_by?.startsWith(host)) return false;
      const pid = Number(job.locked_by.slice(host.length).split(':')[0]);
      return pid !== process.pid && !isAlive(pid);
    });
    await this.jobs.requeue(dead.map((job) => Number(job.id)));
    return dead.length;
  }

  /** Looks for work now rather than at the next poll. */
  poke(): void {
    this.wake?.();
  }

  /**
   * Stops before the database closes: the job in hand is abandoned mid-transcode (its ffmpeg killed) and stays
   * `running`, to be resumed by the next start (embedded) or by any worker once its claim goes stale.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.current?.abort();
    this.wake?.();
    await this.loop;
  }

  /** Runs queued jobs until none is left; for tests and the CLI. */
  async drain(): Promise<void> {
    let job: JobRow | null;
    while ((job = await this.jobs.claim(this.worker))) await this.execute(job);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let job: JobRow | null = null;
      try {
        job = await this.jobs.claim(this.worker);
      } catch (error) {
        if (!this.stopped) this.logger.error(`Could not claim a job: ${String(error)}`);
      }
      if (job) {
        await this.execute(job);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.loop = undefined;
  }

  private async execute(job: JobRow): Promise<void> {
    const abort = (this.current = new AbortController());
    try {
      if (job.kind !== INGEST_KIND || job.video_id === null) throw new Error(`Unknown job kind ${job.kind}`);
      const payload = job.payload as unknown as IngestPayload;
      await this.ingest.ingest(job.id, job.video_id, payload, (percent) => this.jobs.progress(job.id, this.worker, percent), abort.signal);
      await this.jobs.complete(job.id);
    } catch (error) {
      if (abort.signal.aborted) return; // shutting down: the job resumes after the restart

      const message = error instanceof Error ? error.message : String(error);
      const state = await this.jobs.fail(job.id, message).catch(() => 'failed' as const);
      this.logger.warn(`Ingest job ${job.id} attempt ${job.attempts} failed (${state}): ${message}`);
      if (state === 'failed' && job.video_id !== null) {
        await this.db.query(`UPDATE videos SET status = 'failed' WHERE id = $1 AND status = 'processing'`, [job.video_id]).catch(() => undefined);
      }
    } finally {
      this.current = undefined;
    }
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
