import type { Job } from '@/lib/api/types';

export const JOB_STATE_LABELS: Record<Job['state'], string> = {
  queued: 'Queued',
  running: 'Processing',
  done: 'Done',
  failed: 'Failed',
};

/** A job's state as a coloured label. */
export function JobStateBadge({ state }: { state: Job['state'] }) {
  return <span className={`job-state job-state--${state}`}>{JOB_STATE_LABELS[state]}</span>;
}

/** A job's progress as a bar with its percentage, named for assistive technology by `label`. */
export function JobProgressBar({ job, label }: { job: Pick<Job, 'state' | 'progress'>; label: string }) {
  const percent = job.state === 'done' ? 100 : Math.max(0, Math.min(100, Math.round(job.progress)));
  return (
    <span className="job-progress-bar">
      <progress value={percent} max={100} aria-label={label} />
      <span className="job-progress-bar__text">{percent}%</span>
    </span>
  );
}
