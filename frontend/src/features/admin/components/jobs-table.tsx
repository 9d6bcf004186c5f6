import { Link } from 'react-router';
import { isJobActive, useJobs } from '../api/get-jobs';
import { useRetryJob } from '../api/retry-job';
import { failureNotice, useAdminNotice } from './admin-notice';
import { JobProgressBar, JobStateBadge } from './job-state';

/**
 * Every processing job, newest first, read again every 2 s while one is queued or running. A failed job can
 * be retried.
 */
export function JobsTable() {
  const jobs = useJobs();
  const retry = useRetryJob();
  const notice = useAdminNotice();

  const onRetry = (jobId: number) =>
    retry.mutate(jobId, {
      onSuccess: () => notice.success(`Job ${jobId} is queued again.`),
      onError: (error) => notice.error(failureNotice(`Job ${jobId} could not be retried`, error)),
    });

  if (jobs.isPending) {
    return (
      <p className="notice" aria-busy="true">
        Loading the jobs…
      </p>
    );
  }
  if (jobs.isError && !jobs.data) {
    return (
      <div className="notice" role="alert">
        <p>The jobs could not be loaded.</p>
        <button className="button" type="button" onClick={() => void jobs.refetch()}>
          Try again
        </button>
      </div>
    );
  }

  const list = jobs.data.data;
  const active = list.filter(isJobActive).length;

  return (
    <div className="jobs">
      <p className="jobs__summary" aria-live="polite">
        {active > 0 ? `${active} ${active === 1 ? 'job' : 'jobs'} in progress; updating every 2 seconds.` : 'No job in progress.'}
      </p>
      {list.length === 0 ? (
        <p className="notice">No jobs yet. Uploading a video starts one.</p>
      ) : (
        <div className="video-table__scroll">
          <table className="admin-table jobs-table">
            <caption className="visually-hidden">Processing jobs, newest first</caption>
            <thead>
              <tr>
                <th scope="col" className="admin-table__number">
                  Job
                </th>
                <th scope="col">Video</th>
                <th scope="col">Kind</th>
                <th scope="col">State</th>
                <th scope="col">Progress</th>
                <th scope="col">Error</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((job) => (
                <tr key={job.id}>
                  <td className="admin-table__number">{job.id}</td>
                  <td>
                    {job.video_id === null ? (
                      <span className="jobs-table__none">None</span>
                    ) : (
                      <Link to={`/admin/videos/${job.video_id}`}>Video {job.video_id}</Link>
                    )}
                  </td>
                  <td>{job.kind}</td>
                  <td>
                    <JobStateBadge state={job.state} />
                  </td>
                  <td>
                    <JobProgressBar job={job} label={`Job ${job.id} progress`} />
                  </td>
                  <td className="jobs-table__error">{job.error ?? ''}</td>
                  <td>
                    {job.state === 'failed' && (
                      <button
                        className="button"
                        type="button"
                        aria-label={`Retry job ${job.id}`}
                        disabled={retry.isPending && retry.variables === job.id}
                        onClick={() => onRetry(job.id)}
                      >
                        Retry
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
