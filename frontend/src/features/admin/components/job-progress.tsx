import { Link } from 'react-router';
import { ApiError } from '@/lib/api/client';
import { isJobActive, useJob } from '../api/get-jobs';
import { useRetryJob } from '../api/retry-job';
import { JobProgressBar, JobStateBadge } from './job-state';

interface JobProgressProps {
  jobId: number;
  videoId: number;
}

const STATE_TEXT = {
  queued: 'Waiting for a worker to start processing…',
  running: 'Processing: probing the file, building the HLS renditions, poster, storyboard and preview…',
  done: 'The video is ready.',
  failed: 'Processing failed.',
} as const;

/**
 * The ingest job of a fresh upload, read every second while it is queued or running: its state and progress,
 * the links to the video once done, and its error with a Retry button once failed.
 */
export function JobProgress({ jobId, videoId }: JobProgressProps) {
  const job = useJob(jobId);
  const retry = useRetryJob();

  if (job.isPending) {
    return (
      <div className="job-panel" aria-busy="true">
        <p>Reading the processing job…</p>
      </div>
    );
  }
  if (job.isError && !job.data) {
    return (
      <div className="job-panel">
        <p className="form-error" role="alert">
          The processing job could not be read
          {job.error instanceof ApiError ? `: ${job.error.message}` : '.'}
        </p>
        <button className="button" type="button" onClick={() => void job.refetch()}>
          Try again
        </button>
      </div>
    );
  }

  const current = job.data;
  return (
    <div className="job-panel">
      <div className="job-panel__head">
        <h2 className="job-panel__title">Processing job {current.id}</h2>
        <JobStateBadge state={current.state} />
      </div>
      <p aria-live="polite">{STATE_TEXT[current.state]}</p>
      {current.state !== 'failed' && <JobProgressBar job={current} label="Processing progress" />}

      {current.state === 'done' && (
        <div className="job-panel__links">
          <Link className="button" to={`/video/${videoId}`}>
            Watch the video
          </Link>
          <Link className="button button--quiet" to={`/admin/videos/${videoId}`}>
            Edit
          </Link>
        </div>
      )}

      {current.state === 'failed' && (
        <div className="job-panel__failure">
          <p className="form-error" role="alert">
            {current.error ?? 'The job failed without a message.'}
          </p>
          <button
            className="button"
            type="button"
            disabled={retry.isPending}
            onClick={() => retry.mutate(current.id)}
          >
            {retry.isPending ? 'Retrying…' : 'Retry'}
          </button>
          {retry.isError && (
            <p className="form-error" role="alert">
              The job could not be retried
              {retry.error instanceof ApiError ? `: ${retry.error.message}` : '.'}
            </p>
          )}
        </div>
      )}

      {job.isError && isJobActive(current) && (
        <p className="field__hint" role="status">
          Lost touch with the server; still trying…
        </p>
      )}
    </div>
  );
}
