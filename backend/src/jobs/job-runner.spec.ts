import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { pgliteDriver } from '../database/pglite-pool';
import { JobRunner } from './job-runner.service';
import type { JobHandler, JobOutcome, JobRow, JobState } from './job-types';
import type { JobsService } from './jobs.service';

/**
 * The runner with its queue faked in memory: which handler runs, what each outcome does to the job, orphan
 * recovery, and scheduled tasks. The queue's SQL itself is covered by the e2e suites on both databases.
 */
class FakeJobs {
  jobs: (JobRow & { locked_by: string | null })[] = [];
  calls: string[] = [];
  scheduledClaims = new Map<string, boolean>();

  add(kind: string, fields: Partial<JobRow & { locked_by: string | null }> = {}): JobRow {
    const job = { id: this.jobs.length + 1, video_id: 7, kind, state: 'queued' as JobState, progress: 0, error: null, attempts: 0, payload: {}, locked_by: null, ...fields };
    this.jobs.push(job);
    return job;
  }
  async claim(worker: string) {
    const job = this.jobs.find((j) => j.state === 'queued' && !((j as { notBefore?: number }).notBefore! > Date.now()));
    if (!job) return null;
    Object.assign(job, { state: 'running', attempts: job.attempts + 1, locked_by: worker });
    return { ...job };
  }
  async progress(id: number, _worker: string, percent: number) {
    this.calls.push(`progress ${id} ${percent}`);
  }
  async complete(id: number) {
    Object.assign(this.byId(id), { state: 'done', progress: 100 });
  }
  async fail(id: number, error: string, giveUp = false): Promise<JobState> {
    const job = this.byId(id);
    const state: JobState = !giveUp && job.attempts < 3 ? 'queued' : 'failed';
    Object.assign(job, { state, error, locked_by: null });
    return state;
  }
  async postpone(id: number, error: string, seconds: number) {
    const job = this.byId(id);
    Object.assign(job, { state: 'queued', error, locked_by: null, attempts: Math.max(job.attempts - 1, 0), notBefore: Date.now() + seconds * 1000 });
  }
  async running() {
    return this.jobs.filter((j) => j.state === 'running').map((j) => ({ id: j.id, locked_by: j.locked_by }));
  }
  async requeue(ids: number[]) {
    for (const id of ids) Object.assign(this.byId(id), { state: 'queued', locked_by: null });
  }
  async requeueRunning() {
    const running = this.jobs.filter((j) => j.state === 'running');
    for (const job of running) Object.assign(job, { state: 'queued', locked_by: null });
    return running.length;
  }
  async claimScheduled(name: string) {
    this.calls.push(`claim ${name}`);
    return this.scheduledClaims.get(name) ?? true;
  }
  private byId(id: number) {
    const job = this.jobs.find((j) => j.id === id);
    if (!job) throw new Error(`no job ${id}`);
    return job;
  }
}

function handler(kind: string, run: (job: JobRow) => Promise<JobOutcome>): JobHandler & { failedJobs: number[] } {
  const failedJobs: number[] = [];
  return {
    kind,
    failedJobs,
    run: (job, context) => context.report(50).then(() => run(job)),
    failed: async (job) => {
      failedJobs.push(job.id);
    },
  };
}

const embedded = { options: { driver: pgliteDriver } } as unknown as DataSource;
const server = { options: {} } as unknown as DataSource;

function runnerWith(jobs: FakeJobs, db: DataSource = embedded): JobRunner {
  return new JobRunner(jobs as unknown as JobsService, db, { ingestWorker: true } as AppConfig);
}

describe('JobRunner', () => {
  it('runs each job with the handler registered for its kind and completes it', async () => {
    const jobs = new FakeJobs();
    const runner = runnerWith(jobs);
    const seen: string[] = [];
    runner.register(handler('a', async (job) => (seen.push(`a${job.id}`), { state: 'done' })));
    runner.register(handler('b', async (job) => (seen.push(`b${job.id}`), { state: 'done' })));
    jobs.add('b');
    jobs.add('a');
    await runner.drain();
    expect(seen).toEqual(['b1', 'a2']);
    expect(jobs.jobs.map((j) => j.state)).toEqual(['done', 'done']);
    expect(jobs.calls).toContain('progress 1 50');
  });

  it('refuses a second handler for the same kind', () => {
    const runner = runnerWith(new FakeJobs());
    runner.register(handler('a', async () => ({ state: 'done' })));
    expect(() => runner.register(handler('a', async () => ({ state: 'done' })))).toThrow(/registered already/);
  });

  it('retries a thrown error until the attempts are used up, then tells the handler once', async () => {
    const jobs = new FakeJobs();
    const runner = runnerWith(jobs);
    let runs = 0;
    const h = handler('a', async () => {
      runs += 1;
      throw new Error('ffmpeg failed');
    });
    runner.register(h);
    jobs.add('a');
    await runner.drain();
    expect(runs).toBe(3);
    expect(jobs.jobs[0]).toMatchObject({ state: 'failed', error: 'ffmpeg failed' });
    expect(h.failedJobs).toEqual([1]);
  });

  it("gives up at once on a 'fail' outcome", async () => {
    const jobs = new FakeJobs();
    const runner = runnerWith(jobs);
    let runs = 0;
    const h = handler('a', async () => (runs++, { state: 'fail', error: 'Video 7 is gone' }));
    runner.register(h);
    jobs.add('a');
    await runner.drain();
    expect(runs).toBe(1);
    expect(jobs.jobs[0]).toMatchObject({ state: 'failed', error: 'Video 7 is gone' });
    expect(h.failedJobs).toEqual([1]);
  });

  it("puts a job back for later on a 'wait' outcome, its attempt given back, however many times it waits", async () => {
    const jobs = new FakeJobs();
    const runner = runnerWith(jobs);
    let runs = 0;
    const h = handler('a', async () => (++runs <= 5 ? { state: 'wait', error: 'the media store does not answer', seconds: 10 } : { state: 'done' }));
    runner.register(h);
    jobs.add('a');
    for (let outage = 0; outage < 5; outage++) {
      await runner.drain();
      // Queued for later: drain does not take it again before its time.
      expect(jobs.jobs[0]).toMatchObject({ state: 'queued', attempts: 0, error: 'the media store does not answer' });
      expect((jobs.jobs[0] as { notBefore?: number }).notBefore).toBeGreaterThan(Date.now() + 9_000);
      (jobs.jobs[0] as { notBefore?: number }).notBefore = 0;
    }
    await runner.drain();
    expect(runs).toBe(6);
    expect(jobs.jobs[0].state).toBe('done');
    expect(h.failedJobs).toEqual([]);
  });

  it('fails a job of a kind nobody handles, without retrying it', async () => {
    const jobs = new FakeJobs();
    const runner = runnerWith(jobs);
    jobs.add('mystery');
    await runner.drain();
    expect(jobs.jobs[0]).toMatchObject({ state: 'failed', error: 'Unknown job kind mystery', attempts: 1 });
  });

  it('on the embedded database, resumes every job left running (this process was the only worker)', async () => {
    const jobs = new FakeJobs();
    jobs.add('a', { state: 'running', attempts: 1, locked_by: 'elsewhere:1:x' });
    const runner = runnerWith(jobs, embedded);
    runner.register(handler('a', async () => ({ state: 'done' })));
    await runner.start();
    await vi.waitFor(() => expect(jobs.jobs[0].state).toBe('done'));
    await runner.beforeApplicationShutdown();
  });

  it('on a server, resumes only the jobs of dead processes on this host', async () => {
    const jobs = new FakeJobs();
    const host = hostname();
    const dead = jobs.add('a', { state: 'running', attempts: 1, locked_by: `${host}:2147483646:x` });
    const alive = jobs.add('a', { state: 'running', attempts: 1, locked_by: `${host}:${process.ppid}:x` });
    const otherHost = jobs.add('a', { state: 'running', attempts: 1, locked_by: 'another-host:1:x' });
    const runner = runnerWith(jobs, server);
    const ran: number[] = [];
    runner.register(handler('a', async (job) => (ran.push(job.id), { state: 'done' })));
    await runner.start();
    await vi.waitFor(() => expect(ran).toEqual([dead.id]));
    await runner.beforeApplicationShutdown();
    expect(jobs.jobs.find((j) => j.id === alive.id)?.state).toBe('running');
    expect(jobs.jobs.find((j) => j.id === otherHost.id)?.state).toBe('running');
  });

  it('on a server, an idle worker takes over the job of a worker on its host that died after it started', async () => {
    vi.useFakeTimers();
    try {
      const jobs = new FakeJobs();
      const runner = runnerWith(jobs, server);
      const ran: number[] = [];
      runner.register(handler('a', async (job) => (ran.push(job.id), { state: 'done' })));
      await runner.start();
      // Another worker of this host claimed it, then was killed (its pid no longer runs).
      const orphan = jobs.add('a', { state: 'running', attempts: 1, locked_by: `${hostname()}:2147483646:x` });
      await vi.advanceTimersByTimeAsync(5_000);
      expect(ran).toEqual([]);
      await vi.advanceTimersByTimeAsync(6_000);
      expect(ran).toEqual([orphan.id]);
      expect(jobs.jobs[0]).toMatchObject({ state: 'done', attempts: 2 });
      const stopping = runner.beforeApplicationShutdown();
      await vi.advanceTimersByTimeAsync(1_000);
      await stopping;
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs a scheduled task only when this process wins its claim', async () => {
    const jobs = new FakeJobs();
    const runner = runnerWith(jobs);
    const runs: string[] = [];
    runner.schedule({ name: 'mine', everyMs: 60_000, run: async () => (runs.push('mine'), 'ok') });
    runner.schedule({ name: 'theirs', everyMs: 60_000, run: async () => (runs.push('theirs'), 'ok') });
    jobs.scheduledClaims.set('theirs', false);
    await runner.runDueTasks();
    expect(runs).toEqual(['mine']);
    expect(jobs.calls.filter((c) => c.startsWith('claim'))).toEqual(['claim mine', 'claim theirs']);
  });

  it('keeps running the other scheduled tasks when one fails', async () => {
    const jobs = new FakeJobs();
    const runner = runnerWith(jobs);
    const runs: string[] = [];
    runner.schedule({ name: 'broken', everyMs: 1, run: async () => Promise.reject(new Error('database down')) });
    runner.schedule({ name: 'fine', everyMs: 1, run: async () => (runs.push('fine'), 'ok') });
    await runner.runDueTasks();
    expect(runs).toEqual(['fine']);
  });
});
