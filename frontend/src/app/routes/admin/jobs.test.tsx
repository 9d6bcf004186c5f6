import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/lib/api/types';
import { makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin' });

const job = (overrides: Partial<Job>): Job => ({
  id: 1,
  video_id: 1,
  kind: 'ingest',
  state: 'done',
  progress: 100,
  error: null,
  ...overrides,
});

const settledJobs = (): Job[] => [
  job({ id: 9, video_id: 42, state: 'failed', progress: 30, error: 'ffmpeg exited with code 1' }),
  job({ id: 8, video_id: 41, state: 'done', progress: 100 }),
  job({ id: 7, video_id: null, kind: 'thumbnail', state: 'done', progress: 100 }),
];

function setup(routes: Routes = {}) {
  return mockFetch({
    '/api/site': () => makeSite(),
    '/api/auth/me': () => ({ user: admin }),
    '/api/admin/jobs': () => ({ data: settledJobs() }),
    ...routes,
  });
}

const rowOf = (id: number) => {
  const cell = screen.getByRole('cell', { name: String(id) });
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for job ${id}`);
  return within(row);
};

describe('admin jobs page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists the jobs newest first with their video, kind, state, progress and error', async () => {
    setup();

    renderRoute('/admin/jobs');

    await screen.findByRole('table');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0].textContent)).toEqual(['9', '8', '7']);

    const failed = rowOf(9);
    expect(failed.getByRole('link', { name: 'Video 42' })).toHaveAttribute('href', '/admin/videos/42');
    expect(failed.getByText('ingest')).toBeInTheDocument();
    expect(failed.getByText('Failed')).toBeInTheDocument();
    expect(failed.getByRole('progressbar', { name: 'Job 9 progress' })).toHaveAttribute('value', '30');
    expect(failed.getByText('ffmpeg exited with code 1')).toBeInTheDocument();
    expect(failed.getByRole('button', { name: 'Retry job 9' })).toBeInTheDocument();

    const done = rowOf(8);
    expect(done.getByText('Done')).toBeInTheDocument();
    expect(done.getByText('100%')).toBeInTheDocument();
    expect(done.queryByRole('button')).not.toBeInTheDocument();

    expect(rowOf(7).getByText('None')).toBeInTheDocument();
    expect(rowOf(7).getByText('thumbnail')).toBeInTheDocument();
    expect(screen.getByText('No job in progress.')).toBeInTheDocument();
  });

  it('retries a failed job, which shows it queued again', async () => {
    let retried = false;
    const fetchMock = setup({
      '/api/admin/jobs': () => ({
        data: settledJobs().map((item) => (retried && item.id === 9 ? { ...item, state: 'running', progress: 5, error: null } : item)),
      }),
      '/api/admin/jobs/9/retry': () => {
        retried = true;
        return json({ error: null }, 202);
      },
    });
    const user = userEvent.setup();

    renderRoute('/admin/jobs');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Retry job 9' }));

    expect(await screen.findByText('Job 9 is queued again.')).toBeInTheDocument();
    const calls = fetchMock.mock.calls.filter(([url]) => String(url) === '/api/admin/jobs/9/retry');
    expect(calls).toHaveLength(1);
    expect(calls[0][1]?.method).toBe('POST');
    await waitFor(() => expect(rowOf(9).getByText('Processing')).toBeInTheDocument());
    expect(rowOf(9).queryByRole('button', { name: 'Retry job 9' })).not.toBeInTheDocument();
    expect(screen.queryByText('ffmpeg exited with code 1')).not.toBeInTheDocument();
  });

  it('says why a retry was refused', async () => {
    setup({
      '/api/admin/jobs/9/retry': () => json({ error: 'Only failed jobs can be retried', statusCode: 409 }, 409),
    });
    const user = userEvent.setup();

    renderRoute('/admin/jobs');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Retry job 9' }));

    expect(await screen.findByText('Job 9 could not be retried: Only failed jobs can be retried.')).toBeInTheDocument();
  });

  it('reads the jobs again every 2 seconds while one is running, and stops once all have settled', async () => {
    // The page's clock is the test's: each poll is a step of the clock, not 2 s of waiting. The clock still moves
    // with real time too, for findBy* and waitFor.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    const fetchMock = setup({
      '/api/admin/jobs': () => {
        reads += 1;
        return {
          data: [
            reads === 1 ? job({ id: 10, state: 'running', progress: 60 }) : job({ id: 10, state: 'done', progress: 100 }),
            ...settledJobs(),
          ],
        };
      },
    });

    renderRoute('/admin/jobs');

    expect(await screen.findByRole('progressbar', { name: 'Job 10 progress' })).toHaveAttribute('value', '60');
    expect(screen.getByText('1 job in progress; updating every 2 seconds.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(rowOf(10).getByText('Done')).toBeInTheDocument());
    expect(screen.getByText('No job in progress.')).toBeInTheDocument();

    const settled = requestedUrls(fetchMock, '/api/admin/jobs').length;
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(requestedUrls(fetchMock, '/api/admin/jobs')).toHaveLength(settled);
  });

  it('says when there are no jobs yet', async () => {
    setup({ '/api/admin/jobs': () => ({ data: [] }) });

    renderRoute('/admin/jobs');

    expect(await screen.findByText('No jobs yet. Uploading a video starts one.')).toBeInTheDocument();
  });
});
