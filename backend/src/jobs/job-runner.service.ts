import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { Histogram } from 'prom-client';
import { Metrics } from '../common/metrics/metrics';
import { APP_CONFIG } from '../config/config.module';
import { isDependencyDown } from '../common/errors/dependency-errors';
import { isServer } from '../database/data-source';
import type { JobHandler, JobOutcome, JobRow, ScheduledTask } from './job-types';
import { JobsService } from './jobs.service';

const IDLE_POLL_MS = 1000;
/** How often an idle worker looks for jobs left running by a dead process on its host (a killed worker beside it). */
const ORPHAN_CHECK_MS = 10_000;
/** How often the runner asks whether a scheduled task is due (each runs at most once per its own period). */
export const SCHEDULE_CHECK_MS = 60_000;

/**
 * Runs queued jobs one at a time (transcoding takes every core there is), each by the handler registered for
 * its kind, and the scheduled tasks: inside the API in embedded mode, in `npm run worker` in the container
 * stack (INGEST_WORKER=false on the API). Modules register their handlers and tasks when they start.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  readonly worker = `${hostname()}:${process.pid}:${Date.now().toString(36)}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly tasks: ScheduledTask[] = [];
  private stopped = false;
  private databaseDown = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private current?: AbortController;
  private scheduleTimer?: NodeJS.Timeout;
  private scheduling?: Promise<void>;

  constructor(
    private readonly jobs: JobsService,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() metrics?: Metrics,
  ) {
    this.durations = metrics?.histogram('job_duration_seconds', 'Time a job attempt ran, by kind and outcome (done, retry, wait, failed)', ['kind', 'outcome'], [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600]);
    metrics?.gauge('jobs_queued', 'Jobs waiting or running, by kind and state (the queue, across every process)', async () => {
      const rows: { kind: string; state: string; n: string }[] = await this.db.query(`SELECT kind, state, count(*) AS n FROM ingest_jobs WHERE state IN ('queued', 'running') GROUP BY kind, state`);
      return rows.map((r) => ({ labels: { kind: r.kind, state: r.state }, value: Number(r.n) }));
    }, ['kind', 'state']);
  }

  private readonly durations?: Histogram<'kind' | 'outcome'>;

  /** Registers the handler of one job kind (once per kind). */
  register(handler: JobHandler): void {
    if (this.handlers.has(handler.kind)) throw new Error(`A handler for job kind ${handler.kind} is registered already`);
    this.handlers.set(handler.kind, handler);
  }

  /** Registers a task that runs once per deployment every `task.everyMs`, in the process that runs jobs. */
  schedule(task: ScheduledTask): void {
    this.tasks.push(task);
  }

  /** Whether this process runs jobs and scheduled tasks. */
  get active(): boolean {
    return this.config.ingestWorker;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.active) await this.start();
  }

  async start(): Promise<void> {
    const orphans = await this.requeueOrphans();
    if (orphans) this.logger.warn(`Resuming ${orphans} interrupted job(s)`);
    this.stopped = false;
    this.loop ??= this.run();
    await this.runDueTasks();
    this.scheduleTimer ??= setInterval(() => void this.runDueTasks(), SCHEDULE_CHECK_MS);
    this.scheduleTimer.unref();
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
    clearInterval(this.scheduleTimer);
    this.scheduleTimer = undefined;
    this.current?.abort();
    this.wake?.();
    await Promise.all([this.loop, this.scheduling]);
  }

  /** Runs queued jobs until none is left; for tests and the CLI. */
  async drain(): Promise<void> {
    let job: JobRow | null;
    while ((job = await this.jobs.claim(this.worker))) await this.execute(job);
  }

  /** Runs every scheduled task whose period has passed since its last run anywhere in the deployment. */
  runDueTasks(): Promise<void> {
    this.scheduling ??= (async () => {
      for (const task of this.tasks) {
        if (this.stopped) break;
        try {
          if (!(await this.jobs.claimScheduled(task.name, task.everyMs))) continue;
          const summary = await task.run();
          this.logger.log(`Scheduled task ${task.name}: ${summary}`);
        } catch (error) {
          if (!this.stopped) this.logger.warn(`Scheduled task ${task.name} failed: ${String(error)}`);
        }
      }
    })().finally(() => (this.scheduling = undefined));
    return this.scheduling;
  }

  private async run(): Promise<void> {
    let orphansCheckedAt = Date.now();
    while (!this.stopped) {
      let job: JobRow | null = null;
      try {
        if (Date.now() - orphansCheckedAt >= ORPHAN_CHECK_MS && isServer(this.db)) {
          orphansCheckedAt = Date.now();
          const orphans = await this.requeueOrphans();
          if (orphans) this.logger.warn(`Resuming ${orphans} job(s) of a worker on this host that died`);
        }
        job = await this.jobs.claim(this.worker);
        this.reachable();
      } catch (error) {
        if (!this.stopped) this.unreachable(`Could not claim a job: ${String(error)}`, error);
      }
      if (job) {
        await this.execute(job).catch((error: unknown) => this.logger.error(`Job ${job.id} could not be recorded: ${String(error)}`));
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
    const handler = this.handlers.get(job.kind);
    const started = process.hrtime.bigint();
    let outcome: JobOutcome;
    try {
      outcome = handler
        ? await handler.run(job, { report: (percent) => this.jobs.progress(job.id, this.worker, percent), signal: abort.signal })
        : { state: 'fail', error: `Unknown job kind ${job.kind}` };
    } catch (error) {
      outcome = { state: 'retry', error: error instanceof Error ? error.message : String(error) };
    } finally {
      this.current = undefined;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const timed = (result: 'done' | 'wait' | 'retry' | 'failed') => this.durations?.observe({ kind: job.kind, outcome: result }, seconds);
    if (outcome.state === 'done') {
      timed('done');
      // The work is done: keep trying to record it through a database outage rather than redo it.
      await this.persist(() => this.jobs.complete(job.id, outcome.mediaSeconds));
      return;
    }
    if (abort.signal.aborted) return; // shutting down: the job resumes after the restart
    if (outcome.state === 'wait') {
      timed('wait');
      await this.jobs.postpone(job.id, outcome.error, outcome.seconds).catch(() => undefined);
      this.logger.warn(`Job ${job.id} (${job.kind}) waits ${outcome.seconds} s: ${outcome.error}`);
      return;
    }
    const state = await this.jobs.fail(job.id, outcome.error, outcome.state === 'fail').catch(() => 'failed' as const);
    timed(state === 'failed' ? 'failed' : 'retry');
    this.logger.warn(`Job ${job.id} (${job.kind}) attempt ${job.attempts} failed (${state}): ${outcome.error}`);
    if (state === 'failed') await handler?.failed?.(job, outcome.error).catch(() => undefined);
  }

  private async persist(write: () => Promise<void>): Promise<void> {
    for (;;) {
      try {
        await write();
        this.reachable();
        return;
      } catch (error) {
        if (this.stopped || !isDependencyDown(error)) throw error;
        this.unreachable(`Could not record a finished job, retrying: ${String(error)}`, error);
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      }
    }
  }

  /** A database outage is logged once, when it starts, and once when it ends; other errors every time. */
  private unreachable(message: string, error: unknown): void {
    if (!isDependencyDown(error)) {
      this.logger.error(message);
      return;
    }
    if (!this.databaseDown) this.logger.warn(`${message} (the database does not answer; jobs wait until it does)`);
    this.databaseDown = true;
  }

  private reachable(): void {
    if (this.databaseDown) this.logger.log('The database answers again; jobs resume');
    this.databaseDown = false;
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
