import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdStats } from '@/features/admin/api/ad-types';
import type { Dashboard } from '@/features/admin/api/get-dashboard';
import { tableCsv } from '@/features/admin/components/daily-figures';
import { makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

// jsdom has no canvas: the chart shows the figures it was given (testing/daily-chart-stub).
vi.mock('@/features/admin/components/daily-chart', () => import('@/testing/daily-chart-stub'));

const admin = makeUser({}, { role_id: 'admin', display_name: 'Boss' });
const NOW = '2026-11-26T12:00:00.000Z';

function dashboardFor(days: number, overrides: Partial<Dashboard> = {}): Dashboard {
  const daily = Array.from({ length: days }, (_, i) => {
    const last = i === days - 1;
    return {
      day: new Date(Date.UTC(2026, 10, 26) - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
      views: last ? 1200 : i === 0 ? 30 : 0,
      likes: last ? 40 : 0,
      members: last ? 3 : 0,
      uploads: last ? 2 : 0,
      ingests_done: last ? 1 : 0,
      ingests_failed: i === 0 ? 1 : 0,
    };
  });
  return {
    days: days as Dashboard['days'],
    daily,
    totals: { views: 1230, likes: 40, members: 3, uploads: 2, ingests_done: 1, ingests_failed: 1 },
    ingest: { queued: 4, running: 1, media_minutes: 12, seconds_per_media_minute: 55 },
    rankings: [
      {
        period: 'day',
        computed_at: NOW,
        videos: [
          { id: 7, title: 'Pool party', views: 800 },
          { id: 9, title: 'Gym, after hours', views: 400 },
        ],
        categories: [{ id: 'pool', name: 'Pool', views: 800, videos: 1 }],
        performers: [],
      },
      {
        period: 'week',
        computed_at: NOW,
        videos: [{ id: 9, title: 'Gym, after hours', views: 5000 }],
        categories: [{ id: 'gym', name: 'Gym', views: 5000, videos: 3 }],
        performers: [{ id: 'max', name: 'Max', views: 5000, videos: 2 }],
      },
    ],
    removals: {
      open: 5,
      oldest_at: new Date(Date.now() - 40 * 86_400_000).toISOString(),
      by_age: [
        { band: 'under-1-day', count: 2 },
        { band: '1-7-days', count: 0 },
        { band: '7-30-days', count: 2 },
        { band: 'over-30-days', count: 1 },
      ],
      by_reason: [
        { reason: 'underage', count: 1 },
        { reason: 'no-consent', count: 0 },
        { reason: 'illegal', count: 0 },
        { reason: 'copyright', count: 3 },
        { reason: 'other', count: 1 },
      ],
    },
    ...overrides,
  };
}

const adCounts = (impressions: number, clicks: number) => ({ requests: 400, fills: 250, impressions, completes: 0, skips: 0, clicks, errors: 0 });

/** GET /api/admin/ad-stats: two zones; the days' figures add up to 400 requests, 250 fills, 240 impressions, 12 clicks. */
function adStatsFor(days: number): AdStats {
  return {
    days: days as AdStats['days'],
    zones: [
      { id: 1, name: 'Home pre-roll', placement: 'preroll', active: true, totals: adCounts(200, 10) },
      { id: 2, name: 'Footer banner', placement: 'banner-footer', active: true, totals: adCounts(40, 2) },
    ],
    daily: Array.from({ length: days }, (_, i) => ({
      day: new Date(Date.UTC(2026, 10, 26) - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
      ...(i === days - 1 ? adCounts(240, 12) : { ...adCounts(0, 0), requests: 0, fills: 0 }),
    })),
  };
}

function setup(answer: (days: number) => unknown = (days) => dashboardFor(days), ads: (days: number) => unknown = adStatsFor) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => ({ user: admin }),
    '/api/admin/removal-requests': () => ({ data: [], page: 1, limit: 1, total: 0, counts: {} }),
    '/api/admin/dashboard': (url) => answer(Number(url.searchParams.get('days'))),
    '/api/admin/ad-stats': (url) => ads(Number(url.searchParams.get('days'))),
  });
}

const page = async () => (await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).closest('section') as HTMLElement;
const panel = (root: HTMLElement, title: string) => within(root).getByRole('heading', { level: 2, name: title }).closest('section') as HTMLElement;
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('the site dashboard at /admin', () => {
  it('shows the last 30 days by default: totals, and each chart with its table', async () => {
    const fetchMock = setup();
    renderRoute('/admin');
    const root = await page();
    const facts = await waitFor(() => {
      const found = root.querySelector<HTMLElement>('.dashboard__totals');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(requestedUrls(fetchMock, '/api/admin/dashboard')[0].searchParams.get('days')).toBe('30');
    expect(within(root).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    expect([...facts.querySelectorAll('div')].map((d) => d.textContent)).toEqual([
      'Views1,230',
      'Likes40',
      'New members3',
      'Uploads2',
      'Ingests1 done, 1 failed',
    ]);

    const traffic = panel(root, 'Views and likes');
    expect(await within(traffic).findByTestId('chart')).toHaveAccessibleName('Views and likes per day, last 30 days');
    expect(within(traffic).getByTestId('chart')).toHaveTextContent(/^30 days; Views: 30 0 .* 1200; Likes: 0 .* 40$/);
    const table = within(traffic).getByRole('table', { name: 'Views and likes per day, last 30 days' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(rowsOf(table)[29]).toEqual(['2026-11-26', '1,200', '40']);

    const members = panel(root, 'New members');
    expect(await within(members).findByTestId('chart')).toHaveTextContent(/^30 days; New members: 0 .* 3$/);
    expect(within(members).getByRole('table', { name: 'New members per day, last 30 days' })).toBeInTheDocument();

    const ingests = panel(root, 'Uploads and ingests');
    expect(await within(ingests).findByTestId('chart')).toHaveTextContent(/^30 days; Uploads: 0 .* 2; Done: 0 .* 1; Failed: 1 0 .* 0$/);
    expect(within(ingests).getByText('Waiting now').nextElementSibling).toHaveTextContent('4');
    expect(within(ingests).getByText('Running now').nextElementSibling).toHaveTextContent('1');
    expect(within(ingests).getByText('Processing time').nextElementSibling).toHaveTextContent('55 s per minute of video (12 min ingested)');
    expect(rowsOf(within(ingests).getByRole('table', { name: 'Uploads and ingest outcomes per day, last 30 days' }))[0]).toEqual(['2026-10-28', '0', '0', '1']);
  });

  it('ranks the most watched videos, categories and performers of today and of the week', async () => {
    setup();
    renderRoute('/admin');
    const root = await page();
    const ranks = await waitFor(() => panel(root, 'Most watched'));
    expect(within(ranks).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Today', 'Last 7 days']);
    const today = within(ranks).getByRole('table', { name: 'Top videos, today' });
    expect(rowsOf(today)).toEqual([
      ['1', 'Pool party', '800'],
      ['2', 'Gym, after hours', '400'],
    ]);
    expect(within(today).getByRole('link', { name: 'Pool party' })).toHaveAttribute('href', '/admin/videos/7');
    expect(rowsOf(within(ranks).getByRole('table', { name: 'Busiest performers, today' }))).toEqual([['No performer watched yet.']]);
    expect(rowsOf(within(ranks).getByRole('table', { name: 'Busiest categories, last 7 days' }))).toEqual([['1', 'Gym', '5,000', '3']]);
    expect(rowsOf(within(ranks).getByRole('table', { name: 'Busiest performers, last 7 days' }))).toEqual([['1', 'Max', '5,000', '2']]);
  });

  it('shows the open removal requests by age and by reason, with a way to them', async () => {
    setup();
    renderRoute('/admin');
    const root = await page();
    const removals = await waitFor(() => panel(root, 'Open removal requests'));
    expect(removals).toHaveTextContent('5 open; the oldest was filed 1 month ago.');
    expect(within(removals).getByRole('link', { name: 'Review them' })).toHaveAttribute('href', '/admin/removals');
    expect(rowsOf(within(removals).getByRole('table', { name: 'Open removal requests by age' }))).toEqual([
      ['Under a day', '2 of 5'],
      ['1 to 7 days', '0 of 5'],
      ['7 to 30 days', '2 of 5'],
      ['Over 30 days', '1 of 5'],
    ]);
    expect(rowsOf(within(removals).getByRole('table', { name: 'Open removal requests by reason' }))).toEqual([
      ['Under 18', '1 of 5'],
      ['No consent', '0 of 5'],
      ['Illegal acts', '0 of 5'],
      ['Copyright', '3 of 5'],
      ['Other', '1 of 5'],
    ]);
    expect(within(removals).getByRole('button', { name: 'Download CSV: open removal requests' })).toBeInTheDocument();
  });

  it('sums up the period’s ads, with a way to the ad zones, for the period picked', async () => {
    const fetchMock = setup();
    renderRoute('/admin');
    const root = await page();
    const ads = await waitFor(() => panel(root, 'Ads'));
    const facts = await within(ads).findByLabelText('Ads, last 30 days');
    expect([...facts.querySelectorAll('div')].map((d) => d.textContent)).toEqual(['Impressions240', 'Clicks12', 'Fill rate62.5%']);
    expect(within(ads).getByRole('link', { name: 'See the ad zones' })).toHaveAttribute('href', '/admin/ads');

    await userEvent.click(within(root).getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(within(ads).getByLabelText('Ads, last 7 days')).toBeInTheDocument());
    expect(requestedUrls(fetchMock, '/api/admin/ad-stats').map((u) => u.searchParams.get('days'))).toEqual(['30', '7']);
  });

  it('says when the site has no ad zone', async () => {
    setup(undefined, (days) => ({ ...adStatsFor(days), zones: [] }));
    renderRoute('/admin');
    const root = await page();
    const ads = await waitFor(() => panel(root, 'Ads'));
    expect(await within(ads).findByText('No ad zone yet: the site shows no ads.')).toBeInTheDocument();
    expect(within(ads).getByRole('link', { name: 'See the ad zones' })).toHaveAttribute('href', '/admin/ads');
  });

  it('says when the ad figures cannot be read, and shows the rest', async () => {
    setup(undefined, () => json({ error: 'Service unavailable', statusCode: 503 }, 503));
    renderRoute('/admin');
    const root = await page();
    const ads = await waitFor(() => panel(root, 'Ads'));
    expect(await within(ads).findByRole('alert')).toHaveTextContent('The ad figures could not be loaded.');
    expect(root.querySelector('.dashboard__totals')).not.toBeNull();
  });

  it('says when nothing is open and no ingest was done', async () => {
    setup((days) => ({
      ...dashboardFor(days),
      ingest: { queued: 0, running: 0, media_minutes: 0, seconds_per_media_minute: null },
      removals: { open: 0, oldest_at: null, by_age: [], by_reason: [] },
    }));
    renderRoute('/admin');
    const root = await page();
    const removals = await waitFor(() => panel(root, 'Open removal requests'));
    expect(removals).toHaveTextContent('None open.');
    expect(within(panel(root, 'Uploads and ingests')).getByText('Processing time').nextElementSibling).toHaveTextContent('no ingest done in the period');
  });

  it('switches to 7 and 90 days', async () => {
    const fetchMock = setup();
    renderRoute('/admin');
    const root = await page();
    await within(root).findAllByTestId('chart');
    await userEvent.click(within(root).getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(within(panel(root, 'New members')).getByTestId('chart')).toHaveTextContent(/^7 days;/));
    await userEvent.click(within(root).getByRole('button', { name: '90 days' }));
    await waitFor(() => expect(within(root).getByRole('table', { name: 'Views and likes per day, last 90 days' })).toBeInTheDocument());
    expect(requestedUrls(fetchMock, '/api/admin/dashboard').map((u) => u.searchParams.get('days'))).toEqual(['30', '7', '90']);
  });

  it('says so when the dashboard cannot be read, and tries again', async () => {
    let fail = true;
    setup((days) => (fail ? json({ error: 'Service unavailable', statusCode: 503 }, 503) : dashboardFor(days)));
    renderRoute('/admin');
    const root = await page();
    const alert = await within(root).findByRole('alert');
    expect(alert).toHaveTextContent('The dashboard could not be loaded.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(root.querySelector('.dashboard__totals')).not.toBeNull());
  });

  it('writes tables as CSV, quoting text that needs it', () => {
    expect(tableCsv(['name', 'views'], [['Gym, after hours', 3], ['Say "hi"', 1]])).toBe('name,views\n"Gym, after hours",3\n"Say ""hi""",1\n');
  });

  it('writes text a spreadsheet would run as a formula as text, and numbers as they are', () => {
    const titles = ['=HYPERLINK("http://evil.example","Pool")', '+1+1', '-2', '@SUM(A1)', '\tTab', 'Fine = fine'];
    expect(tableCsv(['title', 'views'], [...titles.map((title) => [title, -1] as const), ['x', 0]])).toBe(
      'title,views\n"\'=HYPERLINK(""http://evil.example"",""Pool"")",-1\n\'+1+1,-1\n\'-2,-1\n\'@SUM(A1),-1\n\'\tTab,-1\nFine = fine,-1\nx,0\n',
    );
  });
});
