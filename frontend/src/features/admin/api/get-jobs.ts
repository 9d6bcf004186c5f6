import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { Job } from '@/lib/api/types';

/** A job still moving: the pages that show it keep asking until it settles. */
export const isJobActive = (job: Pick<Job, 'state'>) => job.state === 'queued' || job.state === 'running';

/** How often a page asks again while something is still moving. */
export const JOB_POLL_MS = 1000;
export const JOBS_POLL_MS = 2000;

export const jobsQueryKey = ['admin', 'jobs'] as const;

/** GET /api/admin/jobs: the newest jobs first. */
export const getJobs = (signal?: AbortSignal) => ok(api.GET('/api/admin/jobs', { signal }));

export const jobsQueryOptions = () =>
  queryOptions({
    queryKey: jobsQueryKey,
    queryFn: ({ signal }) => getJobs(signal),
    staleTime: 0,
    // Asks again every 2 s while any job is queued or running, and stops once all have settled.
    refetchInterval: (query) => (query.state.data?.data.some(isJobActive) ? JOBS_POLL_MS : false),
  });

export const useJobs = () => useQuery(jobsQueryOptions());

/** GET /api/admin/jobs/{id}. */
export const getJob = async (id: number, signal?: AbortSignal): Promise<Job> =>
  (await ok(api.GET('/api/admin/jobs/{id}', { params: { path: { id } }, signal }))).data;

export const jobQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...jobsQueryKey, id],
    queryFn: ({ signal }) => getJob(id, signal),
    staleTime: 0,
    // Every second while the job is queued or running; a settled job (done, failed) is not asked again.
    refetchInterval: (query) => {
      const job = query.state.data;
      return !job || isJobActive(job) ? JOB_POLL_MS : false;
    },
  });

export const useJob = (id: number | null) =>
  useQuery({ ...jobQueryOptions(id ?? 0), enabled: id !== null });
