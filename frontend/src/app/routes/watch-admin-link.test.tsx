import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/lib/api/types';
import { makeSite, makeUser, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, noContent } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

// hls.js needs Media Source Extensions, which jsdom lacks (see watch.test.tsx).
vi.mock('@/features/watch/hooks/use-hls', () => ({
  useHls: vi.fn(() => ({ levels: [], level: -1, setLevel: () => {} })),
}));

function setup(user: User | null) {
  const video = makeWatchVideo({ id: 7, title: 'Pool party' });
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => (user ? { user } : json({ error: 'Unauthorized', statusCode: 401 }, 401)),
    '/api/videos/7': () => video,
    '/api/videos/7/related': () => ({ related: false, data: [] }),
    '/api/video/secure': () => ({ secureUrl: '/s/t,1900000000/videos/2024/06/video-7/index.m3u8', expiresAt: '2030-03-17T17:46:40.000Z' }),
    '/api/video/add-trending': noContent,
    '/api/video/increment-views': () => ({ views: 1 }),
    '/api/video/add-history': noContent,
    '/api/video/get-bookmarks': () => ({ bookmarks: [], error: null }),
    '/api/playlists/get-user-playlists': () => ({ data: [], error: null }),
    '/api/get-client-ip': () => ({ ip: '203.0.113.7' }),
    '/api/categories': () => ({ data: [] }),
    '/api/performers': () => ({ data: [] }),
  });
}

const findTitle = () => screen.findByRole('heading', { level: 1, name: 'Pool party' });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe("watch page: the admin's way into the edit panel", () => {
  it('shows an admin an Edit video link that opens the edit panel of this video', async () => {
    setup(makeUser({}, { role_id: 'admin' }));
    const user = userEvent.setup();

    const { router } = renderRoute('/video/7');
    await findTitle();

    const link = screen.getByRole('link', { name: 'Edit video' });
    expect(link).toHaveAttribute('href', '/admin/videos/7');

    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Mode - Edit Video' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/videos/7');
    expect(screen.getByLabelText('Title')).toHaveValue('Pool party');
  });

  it.each([
    ['a visitor', null],
    ['a member', makeUser({}, { role_id: 'member' })],
    ['a user without a role', makeUser({}, { role_id: null })],
  ])('shows %s no Edit video link', async (_who, user) => {
    setup(user);

    renderRoute('/video/7');
    await findTitle();

    expect(screen.queryByRole('link', { name: 'Edit video' })).not.toBeInTheDocument();
  });
});
