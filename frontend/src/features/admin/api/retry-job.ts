import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { Job, JobList } from '@/lib/api/types';
import { jobQueryOptions, jobsQueryKey, jobsQueryOptions } from './get-jobs';

/** POST /api/admin/jobs/{id}/retry: 202, the failed job is queued again (409 for a job that has not failed). */
export const retryJob = async (id: number): Promise<void> => {
  await ok(api.POST('/api/admin/jobs/{id}/retry', { params: { path: { id } }, body: {} }));
};

/**
 * Retries a job. The 202 means it is queued again with no progress and no error, so the cached job says so at
 * once (which restarts its polling), and then every job is read again.
 */
export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSuccess: (_result, id) => {
      const requeued = (job: Job): Job => (job.id === id ? { ...job, state: 'queued', progress: 0, error: null } : job);
      queryClient.setQueryData(jobQueryOptions(id).queryKey, (job) => (job ? requeued(job) : job));
      queryClient.setQueryData(jobsQueryOptions().queryKey, (list: JobList | undefined) =>
        list ? { ...list, data: list.data.map(requeued) } : list,
      );
      return queryClient.invalidateQueries({ queryKey: jobsQueryKey });
    },
  });
}
