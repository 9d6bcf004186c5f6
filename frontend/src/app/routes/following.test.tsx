import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FollowedPerformer, User } from '@/lib/api/types';
import { makePage, makeSite, makeUser, makeVideo, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

const member = makeUser();
const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);
const performer = (id: string, name: string, video_count = 3): FollowedPerformer => ({ id, name, video_count, followed_at: '2026-11-20T10:00:00.000Z' });

/**
 * The API of a member who follows `followed` (a list the follow calls change, as the server would), with the
 * feed answering `feed`; a visitor when `user` is null.
 */
function setup({ followed = [] as FollowedPerformer[], feed = [] as ReturnType<typeof makeVideo>[], user = member as User | null, routes = {} } = {}) {
  let list = [...followed];
  const calls: string[] = [];
  const fetchMock = mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => (user ? { user } : unauthorized()),
    '/api/me/following': () => (user ? { data: list } : unauthorized()),
    '/api/me/followed-videos': (url) =>
      makePage(feed.slice(0, Number(url.searchParams.get('limit') ?? 24)), { total: feed.length, limit: Number(url.searchParams.get('limit') ?? 24) }),
    '/api/performers': () => ({ data: [{ id: 'alex-stone', name: 'Alex Stone', video_count: 3 }] }),
    '/api/videos': () => makePage([makeVideo({ id: 50, title: 'Catalogue video' })]),
    ...routes,
  });
  // PUT and DELETE /api/me/following/{id}
  const original = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(input, 'http://localhost');
    const match = /^\/api\/me\/following\/([^/]+)$/.exec(url.pathname);
    if (!match) return original(input, init);
    calls.push(`${init?.method} ${match[1]}`);
    const follow = init?.method === 'PUT';
    list = follow ? [performer(match[1], 'Alex Stone'), ...list.filter((p) => p.id !== match[1])] : list.filter((p) => p.id !== match[1]);
    return json({ following: follow });
  });
  return { fetchMock, calls };
}

/**
 * The element matching `selector` once it is there. Role queries over a whole catalogue page take seconds in
 * jsdom (every element's accessible name and style), so these tests find their part first and ask within it.
 */
async function part(selector: string): Promise<HTMLElement> {
  await waitFor(() => expect(document.querySelector(selector)).not.toBeNull(), { timeout: 3000 });
  return document.querySelector(selector) as HTMLElement;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('following performers', () => {
  it('follows and unfollows from the performer page', async () => {
    const { calls } = setup();
    renderRoute('/performers/alex-stone');
    const user = userEvent.setup();
    const head = await part('.catalogue__back');
    await user.click(await within(head).findByRole('button', { name: 'Follow Alex Stone' }));
    await within(head).findByRole('button', { name: 'Following Alex Stone' });
    await user.click(within(head).getByRole('button', { name: 'Following Alex Stone' }));
    await within(head).findByRole('button', { name: 'Follow Alex Stone' });
    expect(calls).toEqual(['PUT alex-stone', 'DELETE alex-stone']);
  });

  it('offers a visitor to log in and come back, and sends nothing', async () => {
    const { calls } = setup({ user: null });
    renderRoute('/performers/alex-stone');
    const link = await within(await part('.catalogue__back')).findByRole('link', { name: 'Follow Alex Stone (log in first)' });
    expect(link).toHaveAttribute('href', '/login?ref=performers/alex-stone');
    expect(calls).toEqual([]);
  });

  it('names each performer of a video on its watch page, with Follow for each', async () => {
    const video = makeWatchVideo({
      id: 7,
      performers: [
        { id: 'alex-stone', name: 'Alex Stone' },
        { id: 'ben-cruz', name: 'Ben Cruz' },
      ],
    });
    const { calls } = setup({
      followed: [performer('ben-cruz', 'Ben Cruz')],
      routes: {
        '/api/videos/7': () => video,
        '/api/videos/7/related': () => ({ related: false, data: [] }),
        '/api/video/secure': () => ({ secureUrl: '/s/t,1900000000/videos/2024/06/video-7/index.m3u8', expiresAt: '2030-03-17T17:46:40.000Z' }),
        '/api/video/add-trending': () => new Response(null, { status: 204 }),
        '/api/video/increment-views': () => ({ views: 1 }),
        '/api/video/add-history': () => new Response(null, { status: 204 }),
        '/api/video/get-bookmarks': () => ({ bookmarks: [], error: null }),
      },
    });
    renderRoute('/video/7');
    const performers = await part('.watch-performers');
    expect(performers).toHaveAccessibleName('Performers');
    expect(within(performers).getByRole('link', { name: 'Alex Stone' })).toHaveAttribute('href', '/performers/alex-stone');
    await within(performers).findByRole('button', { name: 'Following Ben Cruz' });
    await userEvent.setup().click(within(performers).getByRole('button', { name: 'Follow Alex Stone' }));
    await waitFor(() => expect(calls).toEqual(['PUT alex-stone']));
  });

  it('lists the performers followed on /me/following, with their counts, Unfollow and the way to their videos', async () => {
    const { calls } = setup({ followed: [performer('alex-stone', 'Alex Stone', 1), performer('ben-cruz', 'Ben Cruz', 4)] });
    renderRoute('/me/following');
    const list = await screen.findByRole('list', { name: 'Performers you follow' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Alex Stone 1 videoUnfollow Alex Stone', 'Ben Cruz 4 videosUnfollow Ben Cruz']);
    expect(screen.getByText('2 performers')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New from performers you follow' })).toHaveAttribute('href', '/me/following/videos');
    expect(screen.getByRole('link', { name: 'Following' })).toHaveAttribute('aria-current', 'page');
    await userEvent.setup().click(within(list).getByRole('button', { name: 'Unfollow Alex Stone' }));
    await waitFor(() => expect(within(list).queryByText('Alex Stone')).toBeNull());
    expect(calls).toEqual(['DELETE alex-stone']);
  });

  it('says how to follow someone when the list is empty', async () => {
    setup();
    renderRoute('/me/following');
    await screen.findByText('Follow performers from their page or from a video they are in: their new videos gather here.');
    expect(screen.getByRole('link', { name: 'Browse performers' })).toHaveAttribute('href', '/performers');
  });

  it('pages the followed performers’ newest videos on /me/following/videos', async () => {
    const { fetchMock } = setup({ followed: [performer('alex-stone', 'Alex Stone')], feed: [makeVideo({ id: 1, title: 'Newest with Alex' }), makeVideo({ id: 2, title: 'Older with Alex' })] });
    renderRoute('/me/following/videos?page=1');
    await screen.findByRole('heading', { level: 1, name: 'New from performers you follow' });
    await screen.findByRole('heading', { name: 'Newest with Alex' });
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)).toEqual(['Newest with Alex', 'Older with Alex']);
    expect(requestedUrls(fetchMock, '/api/me/followed-videos')[0].search).toBe('?page=1&limit=24');
  });

  it('shows members who follow someone a row of their newest videos on the home page, and nobody else', async () => {
    setup({ followed: [performer('alex-stone', 'Alex Stone')], feed: [makeVideo({ id: 1, title: 'Newest with Alex' })] });
    const { unmount } = renderRoute('/');
    const row = (await screen.findByText('New from performers you follow')).closest('section') as HTMLElement;
    expect(row.getAttribute('aria-labelledby')).toBe(row.querySelector('h2')?.id);
    expect(within(row).getByText('Newest with Alex')).toBeInTheDocument();
    expect(within(row).getByText('See all').closest('a')).toHaveAttribute('href', '/me/following/videos');
    unmount();

    const visitor = setup({ user: null, feed: [makeVideo({ id: 1, title: 'Newest with Alex' })] });
    renderRoute('/');
    await screen.findAllByText('Catalogue video');
    expect(screen.queryByText('New from performers you follow')).toBeNull();
    expect(requestedUrls(visitor.fetchMock, '/api/me/followed-videos')).toEqual([]);
  });
});
