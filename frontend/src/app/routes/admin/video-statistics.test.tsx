import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoStats } from '@/features/admin/api/get-video-stats';
import { dailyCsv } from '@/features/admin/components/daily-figures';
import { makeSite, makeUser, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

// jsdom has no canvas: the chart shows the figures it was given (testing/daily-chart-stub).
vi.mock('@/features/admin/components/daily-chart', () => import('@/testing/daily-chart-stub'));

const admin = makeUser({}, { role_id: 'admin', display_name: 'Boss' });

function statsFor(days: number): VideoStats {
  const daily = Array.from({ length: days }, (_, i) => ({
    day: new Date(Date.UTC(2026, 10, 26) - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
    views: i === days - 1 ? 12 : i === 0 ? 3 : 0,
    likes: i === days - 1 ? 1 : 0,
  }));
  return {
    id: 7,
    title: 'Pool party',
    status: 'ready',
    days: days as VideoStats['days'],
    lifetime: { views: 1234, likes: 56 },
    trending: { score: 12.34, rank: 3, of: 120 },
    categories: [{ id: 'pool', name: 'Pool', rank: 2, of: 40 }],
    daily,
  };
}

function setup(answer: (days: number) => unknown = (days) => statsFor(days)) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => ({ user: admin }),
    '/api/videos/7': () => makeWatchVideo({ id: 7, title: 'Pool party' }),
    '/api/get-client-ip': () => ({ ip: '203.0.113.7' }),
    '/api/categories': () => ({ data: [] }),
    '/api/performers': () => ({ data: [] }),
    '/api/admin/videos/7/stats': (url) => answer(Number(url.searchParams.get('days'))),
  });
}

async function statsSection(): Promise<HTMLElement> {
  const title = await screen.findByRole('heading', { level: 2, name: 'Statistics' });
  return title.closest('section') as HTMLElement;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('a video’s statistics in its admin panel', () => {
  it('shows the last 30 days by default: totals, ranks, the chart and its table', async () => {
    const fetchMock = setup();
    renderRoute('/admin/videos/7');
    const section = await statsSection();
    await within(section).findByText('1,234 views, 56 likes');
    expect(requestedUrls(fetchMock, '/api/admin/videos/7/stats')[0].searchParams.get('days')).toBe('30');
    expect(within(section).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(section).getByText('15 views, 1 like')).toBeInTheDocument();
    expect(within(section).getByText('#3 of 120 (score 12.3)')).toBeInTheDocument();
    expect(within(section).getByText('In Pool').nextElementSibling).toHaveTextContent('#2 of 40 by views');

    const chart = await within(section).findByTestId('chart');
    expect(chart).toHaveAccessibleName('Views and likes per day, last 30 days');
    expect(chart).toHaveTextContent(/^30 days; Views: 3 0 .* 12; Likes: 0 .* 1$/);
    // The text alternative: every day's figures in a table.
    const table = within(section).getByRole('table', { name: 'Views and likes per day, last 30 days' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(within(rows[30]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['12', '1']);
    expect(within(rows[30]).getByRole('rowheader')).toHaveTextContent('2026-11-26');
  });

  it('switches to 7 and 90 days', async () => {
    const fetchMock = setup();
    renderRoute('/admin/videos/7');
    const section = await statsSection();
    await within(section).findByTestId('chart');
    await userEvent.click(within(section).getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(within(section).getByTestId('chart')).toHaveTextContent(/^7 days;/));
    expect(within(section).getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(section).getByRole('button', { name: '90 days' }));
    await waitFor(() => expect(within(section).getByRole('table', { name: 'Views and likes per day, last 90 days' })).toBeInTheDocument());
    expect(requestedUrls(fetchMock, '/api/admin/videos/7/stats').map((u) => u.searchParams.get('days'))).toEqual(['30', '7', '90']);
  });

  it('says an unpublished video has no rank', async () => {
    setup((days) => ({ ...statsFor(days), status: 'processing', trending: { score: 0, rank: null, of: 120 }, categories: [] }));
    renderRoute('/admin/videos/7');
    const section = await statsSection();
    expect(await within(section).findByText('not ranked (not published) (score 0)')).toBeInTheDocument();
  });

  it('says so when the statistics cannot be read, and tries again', async () => {
    let fail = true;
    setup((days) => (fail ? json({ error: 'Service unavailable', statusCode: 503 }, 503) : statsFor(days)));
    renderRoute('/admin/videos/7');
    const section = await statsSection();
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent('The statistics could not be loaded.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await within(section).findByText('1,234 views, 56 likes');
  });

  it('writes the numbers behind the chart as CSV', () => {
    const unit = { one: '', other: '' };
    const series = [
      { key: 'views', label: 'Views', values: [3, 12], color: '', unit },
      { key: 'likes', label: 'Likes', values: [0, 1], color: '', unit },
    ];
    expect(dailyCsv(['2026-11-25', '2026-11-26'], series)).toBe(
      'day,views,likes\n2026-11-25,3,0\n2026-11-26,12,1\n',
    );
  });
});
