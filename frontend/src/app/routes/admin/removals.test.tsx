import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RemovalReason, RemovalRequest, RemovalRequestList } from '@/lib/api/types';
import { makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin', display_name: 'Boss' });
const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();
const daysAgo = (days: number) => new Date(NOW - days * DAY).toISOString();

const request = (overrides: Partial<RemovalRequest>): RemovalRequest => {
  const created = overrides.created_at ?? daysAgo(1);
  return {
    id: 1,
    reason: 'copyright',
    urgent: false,
    videos: [{ id: 42, title: 'Pool party', status: 'ready' }],
    details: '',
    contact: 'owner@example.com',
    state: 'open',
    reports: 1,
    reporters: 1,
    created_at: created,
    last_reported_at: created,
    closed_at: null,
    ...overrides,
  };
};

const REASONS: RemovalReason[] = ['underage', 'no-consent', 'illegal', 'copyright', 'other'];

/** A page of `items` as the API answers it, with the total and the count of each reason. */
function listPage(items: RemovalRequest[], url: URL): RemovalRequestList {
  const reason = url.searchParams.get('reason');
  const page = Number(url.searchParams.get('page') ?? '1');
  const limit = Number(url.searchParams.get('limit') ?? '20');
  const counts = Object.fromEntries(REASONS.map((r) => [r, items.filter((item) => item.reason === r).length])) as RemovalRequestList['counts'];
  const matching = reason ? items.filter((item) => item.reason === reason) : items;
  return { data: matching.slice((page - 1) * limit, page * limit), page, limit, total: matching.length, counts };
}

/** Open requests as the API orders them: urgent first (oldest first among them), then the rest. */
const openQueue = (): RemovalRequest[] => [
  request({
    id: 7,
    reason: 'underage',
    urgent: true,
    videos: [
      { id: 42, title: 'Pool party', status: 'ready' },
      { id: 43, title: null, status: null },
    ],
    details: 'He was 17 here.\nSecond line.',
    contact: 'sam@example.com',
    created_at: daysAgo(3),
  }),
  request({ id: 11, reason: 'no-consent', urgent: true, videos: [{ id: 44, title: 'Beach day', status: 'ready' }], created_at: daysAgo(1) }),
  request({
    id: 2,
    reason: 'copyright',
    urgent: false,
    videos: [{ id: 50, title: 'Gym buddies', status: 'processing' }],
    contact: 'Telegram @studio_owner',
    created_at: daysAgo(10),
  }),
];

const closedList = (): RemovalRequest[] => [
  request({ id: 5, reason: 'other', state: 'resolved', created_at: daysAgo(20), closed_at: daysAgo(2) }),
  request({ id: 4, reason: 'illegal', urgent: true, state: 'dismissed', created_at: daysAgo(30), closed_at: daysAgo(14) }),
];

/**
 * The API as the removal queue meets it, keeping state: closing a request moves it to the closed list and
 * deleting a video leaves it without a title. `routes` override any of it.
 */
function setup({ open = openQueue(), closed = closedList(), routes = {} }: { open?: RemovalRequest[]; closed?: RemovalRequest[]; routes?: Routes } = {}) {
  const store = { open: [...open], closed: [...closed] };
  const closeRoutes: Routes = {};
  for (const item of store.open) {
    closeRoutes[`/api/admin/removal-requests/${item.id}/close`] = (_url, init) => {
      const { state } = JSON.parse(String(init?.body)) as { state: 'resolved' | 'dismissed' };
      const closedItem = { ...item, state, closed_at: new Date().toISOString() };
      store.open = store.open.filter((other) => other.id !== item.id);
      store.closed = [closedItem, ...store.closed];
      return { data: closedItem };
    };
  }
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => ({ user: admin }),
    '/api/admin/jobs': () => ({ data: [] }),
    '/api/admin/removal-requests': (url) => listPage(url.searchParams.get('state') === 'closed' ? store.closed : store.open, url),
    '/api/admin/delete-video': (_url, init) => {
      const { id } = JSON.parse(String(init?.body)) as { id: number };
      const gone = (list: RemovalRequest[]) =>
        list.map((item) => ({
          ...item,
          videos: item.videos.map((video) => (video.id === id ? { id, title: null, status: null } : video)),
        }));
      store.open = gone(store.open);
      store.closed = gone(store.closed);
      return { error: null };
    },
    ...closeRoutes,
    ...routes,
  });
}

const queue = () => screen.findByRole('list', { name: 'Open removal requests' });
const requestCard = (id: number) => {
  const heading = screen.getByRole('heading', { level: 2, name: new RegExp(`^#${id} `) });
  const card = heading.closest('article');
  if (!card) throw new Error(`no card for request ${id}`);
  return within(card);
};
const notices = () => screen.getByRole('status', { name: 'Notifications' });
const nav = () => within(screen.getByRole('navigation', { name: 'Admin' }));

describe('admin removal requests: the open queue', () => {
  it('lists the requests in the order the API gives, with their reason, urgency, sender and videos', async () => {
    const fetchMock = setup();

    renderRoute('/admin/removals');

    expect(await screen.findByRole('heading', { level: 1, name: 'Removal requests' })).toBeInTheDocument();
    await queue();
    expect(requestedUrls(fetchMock, '/api/admin/removal-requests').map((url) => url.search)).toEqual(['?state=open&page=1&limit=20']);
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      '#7 Shows someone under 18',
      '#11 Sender appears in it and did not consent',
      '#2 Sender owns the copyright',
    ]);

    const first = requestCard(7);
    expect(first.getByText('Urgent')).toBeInTheDocument();
    expect(first.getByText('3 days ago')).toHaveAttribute('datetime', openQueue()[0].created_at);
    expect(first.getByRole('link', { name: 'sam@example.com' }).getAttribute('href')).toMatch(/^mailto:sam@example\.com\?subject=/);
    // The sender's line breaks are kept.
    expect(first.getByText(/He was 17 here/).textContent).toBe('He was 17 here.\nSecond line.');
    expect(first.getByRole('link', { name: 'Pool party' })).toHaveAttribute('href', '/video/42');
    expect(first.getByRole('link', { name: 'Edit video 42' })).toHaveAttribute('href', '/admin/videos/42');
    expect(first.getByRole('button', { name: 'Delete video 42' })).toBeInTheDocument();
    // A published video's status goes unsaid.
    expect(first.queryByText(/ready/i)).not.toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Resolve request #7' })).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Dismiss request #7' })).toBeInTheDocument();

    expect(requestCard(11).getByText('Urgent')).toBeInTheDocument();

    const last = requestCard(2);
    expect(last.queryByText('Urgent')).not.toBeInTheDocument();
    expect(last.getByText('Telegram @studio_owner')).toBeInTheDocument();
    expect(last.queryByRole('link', { name: 'Telegram @studio_owner' })).not.toBeInTheDocument();
    expect(last.getByText('Processing')).toBeInTheDocument();
    expect(last.queryByText('Details')).not.toBeInTheDocument();
  });

  it('names a deleted video by its id, with nothing to edit or delete', async () => {
    setup();

    renderRoute('/admin/removals');
    await queue();

    const first = requestCard(7);
    expect(first.getByText('Video 43 (deleted)')).toBeInTheDocument();
    expect(first.queryByRole('link', { name: /Video 43/ })).not.toBeInTheDocument();
    expect(first.queryByRole('link', { name: 'Edit video 43' })).not.toBeInTheDocument();
    expect(first.queryByRole('button', { name: 'Delete video 43' })).not.toBeInTheDocument();
  });

  it.each([
    ['Resolve', 'resolved'],
    ['Dismiss', 'dismissed'],
  ] as const)('closes a request with %s, which takes it off the open list and the navigation count', async (action, state) => {
    const fetchMock = setup();
    const user = userEvent.setup();

    renderRoute('/admin/removals');
    await queue();
    await waitFor(() => expect(nav().getByRole('link', { name: 'Removals, 3 open' })).toBeInTheDocument());

    await user.click(requestCard(11).getByRole('button', { name: `${action} request #11` }));

    expect(await within(notices()).findByText(`Request #11 ${state}.`)).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/removal-requests/11/close')).toEqual([{ state }]);
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: /^#11 / })).not.toBeInTheDocument());
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      '#7 Shows someone under 18',
      '#2 Sender owns the copyright',
    ]);
    expect(nav().getByRole('link', { name: 'Removals, 2 open' })).toHaveAttribute('href', '/admin/removals');
    // The focus moves on to the request that took its place.
    expect(screen.getByRole('article', { name: '#2 Sender owns the copyright' })).toHaveFocus();
  });

  it('says why a request could not be closed, and reads the list again', async () => {
    const fetchMock = setup({
      routes: {
        '/api/admin/removal-requests/7/close': () =>
          json({ error: 'This removal request is already closed', statusCode: 409 }, 409),
      },
    });
    const user = userEvent.setup();

    renderRoute('/admin/removals');
    await queue();
    const reads = requestedUrls(fetchMock, '/api/admin/removal-requests').length;
    await user.click(requestCard(7).getByRole('button', { name: 'Resolve request #7' }));

    expect(
      await within(notices()).findByText('Request #7 was not resolved: This removal request is already closed.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/admin/removal-requests').length).toBeGreaterThan(reads));
    expect(requestCard(7).getByRole('button', { name: 'Resolve request #7' })).toBeEnabled();
  });

  it('deletes a named video only once the admin confirms, then reads the requests again', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();

    renderRoute('/admin/removals');
    await queue();

    await user.click(requestCard(7).getByRole('button', { name: 'Delete video 42' }));
    let dialog = within(screen.getByRole('dialog', { name: 'Confirm Deletion' }));
    expect(dialog.getByText(/Are you sure you want to delete “Pool party” \(video 42\)\?/)).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/delete-video')).toEqual([]);

    await user.click(requestCard(7).getByRole('button', { name: 'Delete video 42' }));
    dialog = within(screen.getByRole('dialog', { name: 'Confirm Deletion' }));
    await user.click(dialog.getByRole('button', { name: 'Delete' }));

    expect(await within(notices()).findByText('Video 42 deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/delete-video')).toEqual([{ id: 42 }]);
    expect(await requestCard(7).findByText('Video 42 (deleted)')).toBeInTheDocument();
    expect(requestCard(7).queryByRole('link', { name: 'Pool party' })).not.toBeInTheDocument();
    // The request stays open: deleting a video does not close it.
    expect(requestCard(7).getByRole('button', { name: 'Resolve request #7' })).toBeInTheDocument();
  });

  it('says why a video could not be deleted', async () => {
    setup({ routes: { '/api/admin/delete-video': () => json({ error: 'Video not found', statusCode: 404 }, 404) } });
    const user = userEvent.setup();

    renderRoute('/admin/removals');
    await queue();
    await user.click(requestCard(2).getByRole('button', { name: 'Delete video 50' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Confirm Deletion' })).getByRole('button', { name: 'Delete' }));

    expect(await within(notices()).findByText('Video 50 was not deleted: Video not found.')).toBeInTheDocument();
    expect(requestCard(2).getByRole('link', { name: 'Gym buddies' })).toBeInTheDocument();
  });

  it('says when no request is open, and the navigation shows no count', async () => {
    setup({ open: [] });

    renderRoute('/admin/removals');

    expect(await screen.findByText('No open removal requests.')).toBeInTheDocument();
    expect(nav().getByRole('link', { name: 'Removals' })).toHaveAttribute('aria-current', 'page');
    expect(nav().queryByRole('link', { name: /open$/ })).not.toBeInTheDocument();
  });

  it('shows a skeleton while the list loads', async () => {
    setup({ routes: { '/api/admin/removal-requests': () => new Promise<Response>(() => {}) } });

    renderRoute('/admin/removals');

    expect(await screen.findByText('Loading the removal requests…')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Open removal requests' })).not.toBeInTheDocument();
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    let fail = true;
    setup({
      routes: {
        '/api/admin/removal-requests': (url) => (fail ? json({ error: 'Down', statusCode: 503 }, 503) : listPage(openQueue(), url)),
      },
    });
    const user = userEvent.setup();

    renderRoute('/admin/removals');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The removal requests could not be loaded.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await queue()).toBeInTheDocument();
  });
});

describe('admin removal requests: reports, reasons and pages', () => {
  /** `n` open copyright requests, numbered from 100, oldest first as the API would order them. */
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => request({ id: 100 + i, reason: 'copyright', created_at: daysAgo(n - i) }));
  const headings = () => screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
  const reasons = () => within(screen.getByRole('navigation', { name: 'Removal requests by reason' }));

  it('says how often a request was reported, by how many senders and when last', async () => {
    setup({
      open: [
        request({ id: 9, reason: 'underage', urgent: true, reports: 900, reporters: 300, created_at: daysAgo(3), last_reported_at: new Date(NOW - 2 * 60 * 60 * 1000).toISOString() }),
        request({ id: 10, reason: 'no-consent', urgent: true, reports: 2, reporters: 1 }),
        request({ id: 11 }),
      ],
    });

    renderRoute('/admin/removals');
    await queue();

    expect(requestCard(9).getByText(/^Reported 900 times by 300 senders, latest/)).toHaveTextContent('Reported 900 times by 300 senders, latest 2 hours ago');
    expect(requestCard(10).getByText(/^Reported 2 times by 1 sender, latest/)).toBeInTheDocument();
    // Filed once: nothing to add.
    expect(requestCard(11).queryByText(/^Reported/)).not.toBeInTheDocument();
  });

  it('counts the requests of each reason, urgent ones first, each a link to those alone', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();

    const { router } = renderRoute('/admin/removals');
    await queue();
    expect(reasons().getAllByRole('link').map((link) => link.getAttribute('aria-label'))).toEqual([
      'All reasons, 3 open',
      'Under 18, 1 open',
      'No consent, 1 open',
      'Illegal acts, 0 open',
      'Copyright, 1 open',
      'Other, 0 open',
    ]);
    expect(reasons().getByRole('link', { name: 'All reasons, 3 open' })).toHaveAttribute('aria-current', 'page');

    await user.click(reasons().getByRole('link', { name: 'Under 18, 1 open' }));

    await waitFor(() => expect(headings()).toEqual(['#7 Shows someone under 18']));
    expect(router.state.location.search).toBe('?reason=underage');
    expect(requestedUrls(fetchMock, '/api/admin/removal-requests').at(-1)?.searchParams.get('reason')).toBe('underage');
    expect(reasons().getByRole('link', { name: 'Under 18, 1 open' })).toHaveAttribute('aria-current', 'page');
    // The other counts stay, to go on from here.
    expect(reasons().getByRole('link', { name: 'Copyright, 1 open' })).toBeInTheDocument();

    await user.click(reasons().getByRole('link', { name: 'Illegal acts, 0 open' }));
    expect(await screen.findByText('No open removal requests for “Illegal acts”.')).toBeInTheDocument();

    await user.click(reasons().getByRole('link', { name: 'All reasons, 3 open' }));
    await waitFor(() => expect(headings()).toHaveLength(3));
    expect(router.state.location.search).toBe('');
  });

  it('pages through a long queue with Previous and Next, the page kept in the address', async () => {
    const fetchMock = setup({ open: many(45) });
    const user = userEvent.setup();

    const { router } = renderRoute('/admin/removals');
    await queue();
    expect(headings()).toHaveLength(20);
    expect(headings()[0]).toBe('#100 Sender owns the copyright');
    const pages = () => within(screen.getByRole('navigation', { name: 'Pagination' }));
    expect(pages().getByText('Page 1 of 3')).toBeInTheDocument();

    await user.click(pages().getByRole('link', { name: 'Next →' }));

    await waitFor(() => expect(headings()[0]).toBe('#120 Sender owns the copyright'));
    expect(router.state.location.search).toBe('?page=2');
    expect(requestedUrls(fetchMock, '/api/admin/removal-requests').at(-1)?.search).toBe('?state=open&page=2&limit=20');
    expect(pages().getByText('Page 2 of 3')).toBeInTheDocument();

    await user.click(pages().getByRole('link', { name: 'Next →' }));
    await waitFor(() => expect(headings()).toHaveLength(5));
    expect(pages().getByText('Next →')).toHaveAttribute('aria-disabled', 'true');

    await user.click(pages().getByRole('link', { name: '← Previous' }));
    await waitFor(() => expect(headings()[0]).toBe('#120 Sender owns the copyright'));
  });

  it('shows the whole count in the navigation, not the page', async () => {
    setup({ open: many(45) });

    renderRoute('/admin/removals');
    await queue();

    await waitFor(() => expect(nav().getByRole('link', { name: 'Removals, 45 open' })).toBeInTheDocument());
    expect(reasons().getByRole('link', { name: 'All reasons, 45 open' })).toBeInTheDocument();
  });

  it('says so when a page past the end is asked for, with the way back', async () => {
    setup();

    renderRoute('/admin/removals?page=5');

    expect(await screen.findByText('Nothing on page 5: the list has 1 page.')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('link', { name: '← Previous' })).toHaveAttribute(
      'href',
      '/admin/removals',
    );
  });

  it('takes a closed request off the counts of its reason', async () => {
    setup();
    const user = userEvent.setup();

    renderRoute('/admin/removals');
    await queue();
    await user.click(requestCard(7).getByRole('button', { name: 'Resolve request #7' }));

    await waitFor(() => expect(reasons().getByRole('link', { name: 'Under 18, 0 open' })).toBeInTheDocument());
    expect(reasons().getByRole('link', { name: 'All reasons, 2 open' })).toBeInTheDocument();
  });
});

describe('admin removal requests: the closed list', () => {
  it('switches to the closed requests through the address, showing how each was closed and when', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();

    const { router } = renderRoute('/admin/removals');
    await queue();
    const lists = within(screen.getByRole('navigation', { name: 'Removal requests shown' }));
    expect(lists.getByRole('link', { name: 'Open' })).toHaveAttribute('aria-current', 'page');

    await user.click(lists.getByRole('link', { name: 'Closed' }));

    expect(await screen.findByRole('list', { name: 'Closed removal requests' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?state=closed');
    expect(lists.getByRole('link', { name: 'Closed' })).toHaveAttribute('aria-current', 'page');
    expect(requestedUrls(fetchMock, '/api/admin/removal-requests').map((url) => url.searchParams.get('state'))).toContain('closed');
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      '#5 Other',
      '#4 Shows non-consensual or illegal acts',
    ]);
    expect(requestCard(5).getByText('Resolved')).toBeInTheDocument();
    expect(requestCard(5).getByText('2 days ago')).toBeInTheDocument();
    expect(requestCard(4).getByText('Dismissed')).toBeInTheDocument();
    expect(requestCard(4).getByText('2 weeks ago')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Resolve|Dismiss) request/ })).not.toBeInTheDocument();
  });

  it('says when no request has been closed', async () => {
    setup({ closed: [] });

    renderRoute('/admin/removals?state=closed');

    expect(await screen.findByText('No closed removal requests.')).toBeInTheDocument();
  });
});

describe('admin navigation: open removal requests', () => {
  it('counts the open requests beside Removals on every admin page', async () => {
    setup();

    renderRoute('/admin/jobs');

    const link = await waitFor(() => nav().getByRole('link', { name: 'Removals, 3 open' }));
    expect(link).toHaveAttribute('href', '/admin/removals');
    expect(link).toHaveTextContent('Removals 3');
    expect(nav().getAllByRole('link').map((item) => item.getAttribute('href'))).toEqual([
      '/admin',
      '/admin/videos',
      '/admin/upload',
      '/admin/jobs',
      '/admin/removals',
      '/admin/taxonomy',
      '/admin/ads',
    ]);
  });
});
