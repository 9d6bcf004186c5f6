import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { videoKeys } from '@/api/videos/keys';
import type { Video } from '@/lib/api/types';
import { makePage, makeSite, makeUser, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin', display_name: 'Boss' });

function setup({ video = makeWatchVideo({ id: 7, title: 'Pool party' }), routes = {} }: { video?: Video; routes?: Routes } = {}) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => ({ user: admin }),
    '/api/videos': () => makePage([]),
    [`/api/videos/${video.id}`]: () => video,
    '/api/get-client-ip': () => ({ ip: '203.0.113.7' }),
    '/api/categories': () => ({ data: [] }),
    '/api/performers': () => ({ data: [] }),
    ...routes,
  });
}

const heading = () => screen.findByRole('heading', { level: 1, name: 'Admin Mode - Edit Video' });
const notices = () => screen.getByRole('status', { name: 'Notifications' });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('admin edit page', () => {
  it('loads the video into the panel, with links back to the list and to the video on the site', async () => {
    let answer: (video: Video) => void = () => {};
    const fetchMock = setup({
      routes: { '/api/videos/7': () => new Promise<Video>((resolve) => (answer = resolve)) },
    });

    renderRoute('/admin/videos/7');

    expect(await screen.findByLabelText('Loading the video')).toHaveAttribute('aria-busy', 'true');
    answer(makeWatchVideo({ id: 7, title: 'Pool party', slug: 'pool-party' }));
    await heading();
    expect(screen.getByLabelText('Title')).toHaveValue('Pool party');
    expect(screen.getByLabelText('Slug')).toHaveValue('pool-party');
    expect(screen.getByRole('link', { name: 'View on the site' })).toHaveAttribute('href', '/video/7');
    expect(screen.getByRole('link', { name: 'Back to the videos' })).toHaveAttribute('href', '/admin/videos');
    expect(requestedUrls(fetchMock, '/api/videos/7')).toHaveLength(1);
    expect(await screen.findByText('203.0.113.7')).toBeInTheDocument();
  });

  it("writes a saved video back to the page's cache, and only once the save succeeded", async () => {
    const original = makeWatchVideo({ id: 7, title: 'Pool party' });
    let fail = true;
    setup({
      video: original,
      routes: {
        '/api/admin/update-video': (_url, init) =>
          fail ? json({ error: 'Slug is already taken', statusCode: 409 }, 409) : { data: JSON.parse(String(init?.body)), error: null },
      },
    });
    const user = userEvent.setup();

    const { queryClient } = renderRoute('/admin/videos/7');
    await heading();
    queryClient.setQueryData(videoKeys.detail(7), original);

    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Pool party, edited');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await within(notices()).findByText('The changes were not saved: Slug is already taken.')).toBeInTheDocument();
    expect(queryClient.getQueryData<Video>(videoKeys.detail(7))?.title).toBe('Pool party');
    expect(queryClient.getQueryData<Video>(['admin', 'video', 7])?.title).toBe('Pool party');

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await within(notices()).findByText('Changes saved.')).toBeInTheDocument();
    expect(queryClient.getQueryData<Video>(videoKeys.detail(7))?.title).toBe('Pool party, edited');
    expect(queryClient.getQueryData<Video>(['admin', 'video', 7])?.title).toBe('Pool party, edited');
    expect(screen.getByLabelText('Title')).toHaveValue('Pool party, edited');
  });

  it('goes back to the video list with a notice once the video is deleted', async () => {
    setup({ routes: { '/api/admin/delete-video': () => ({ error: null }) } });
    const user = userEvent.setup();

    const { router } = renderRoute('/admin/videos/7');
    await heading();
    await user.click(screen.getByRole('button', { name: 'Delete Video' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Confirm Deletion' })).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/videos'));
    expect(within(notices()).getByText('Video 7 deleted.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Admin Mode - Edit Video' })).not.toBeInTheDocument(),
    );
    // The notice outlives the page that raised it.
    expect(within(notices()).getByText('Video 7 deleted.')).toBeInTheDocument();
  });

  it('stays on the page when the delete fails', async () => {
    setup({ routes: { '/api/admin/delete-video': () => json({ error: 'Database unavailable', statusCode: 503 }, 503) } });
    const user = userEvent.setup();

    const { router } = renderRoute('/admin/videos/7');
    await heading();
    await user.click(screen.getByRole('button', { name: 'Delete Video' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Confirm Deletion' })).getByRole('button', { name: 'Delete' }));

    expect(await within(notices()).findByText('The video was not deleted: Database unavailable.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/videos/7');
  });

  it('says so for an unknown video', async () => {
    setup({ routes: { '/api/videos/8': () => json({ error: 'Video not found', statusCode: 404 }, 404) } });

    renderRoute('/admin/videos/8');

    expect(await screen.findByRole('heading', { level: 1, name: 'Video not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the videos' })).toHaveAttribute('href', '/admin/videos');
  });

  it('offers to try again when the video cannot be loaded', async () => {
    let fail = true;
    setup({
      routes: {
        '/api/videos/7': () => (fail ? json({ error: 'Boom', statusCode: 500 }, 500) : makeWatchVideo({ id: 7, title: 'Pool party' })),
      },
    });
    const user = userEvent.setup();

    renderRoute('/admin/videos/7');

    const alert = await screen.findByRole('alert');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await heading()).toBeInTheDocument();
  });

  it('answers Page not found for an id that is not a video id', async () => {
    const fetchMock = setup();

    renderRoute('/admin/videos/pool-party');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(requestedUrls(fetchMock, '/api/videos/pool-party')).toHaveLength(0);
  });
});
