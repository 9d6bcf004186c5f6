export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** A job as the queue holds it (`ingest_jobs`, whatever its kind). */
export interface JobRow {
  id: number;
  video_id: number | null;
  kind: string;
  state: JobState;
  progress: number;
  error: string | null;
  attempts: number;
  payload: Record<string, unknown>;
}

/** What a handler is given besides the job: progress reports (they keep the claim alive) and the abort signal. */
export interface JobContext {
  report(percent: number): Promise<void>;
  /** Aborted when the process shuts down: the job stays claimed and resumes after the restart. */
  signal: AbortSignal;
}

/**
 * How an attempt ended. `retry` spends an attempt and queues the job again while attempts remain; `fail` gives
 * up at once (no attempt could succeed, say the video is gone); `wait` queues it again after `seconds` without
 * spending the attempt (something the job needs does not answer: the media store).
 */
export type JobOutcome =
  /** `mediaSeconds`: the seconds of video the job processed (an ingest), kept for the dashboard's processing time per minute. */
  | { state: 'done'; mediaSeconds?: number }
  | { state: 'retry'; error: string }
  | { state: 'fail'; error: string }
  | { state: 'wait'; error: string; seconds: number };

/** One handler per job kind, registered with the runner by the module that owns the work. */
export interface JobHandler {
  readonly kind: string;
  /** Runs one attempt. A thrown error counts as `retry` with its message. */
  run(job: JobRow, context: JobContext): Promise<JobOutcome>;
  /** Called once when the job has failed for good (attempts used up, or `fail`). */
  failed?(job: JobRow, error: string): Promise<void>;
}

/**
 * Work that must run once per deployment every `everyMs` (not once per API replica): run by the process that
 * runs jobs (the worker in the container stack, the API in embedded mode), claimed in the database so that
 * several workers run it once between them.
 */
export interface ScheduledTask {
  readonly name: string;
  readonly everyMs: number;
  /** Returns a one-line summary for the log. */
  run(): Promise<string>;
}
