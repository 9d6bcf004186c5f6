import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContinueWatchingCard, User } from '@/lib/api/types';
import { makePage, makeSite, makeUser, makeVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

const member = makeUser();
const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);
const started = (id: number, title: string, position_seconds: number, duration: number | null = 600): ContinueWatchingCard => ({
  ...makeVideo({ id, title, duration }),
  watched_at: '2026-11-20T10:00:00.000Z',
  position_seconds,
});

/** The home page's API for a member (`user`) whose row holds `row`, or a visitor; `/api/cards` answers `cards`. */
function setup({ user = member as User | null, row = [] as ContinueWatchingCard[], paused = false, cards = [] as ReturnType<typeof makeVideo>[] } = {}) {
  let held = [...row];
  const removed: string[] = [];
  const fetchMock = mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => (user ? { user } : unauthorized()),
    '/api/me/continue-watching': () => (user ? { data: paused ? [] : held, paused } : unauthorized()),
    '/api/me/followed-videos': () => makePage([]),
    '/api/cards': (url) => {
      const ids = (url.searchParams.get('ids') ?? '').split(',').map(Number);
      return { data: ids.flatMap((id) => cards.filter((card) => card.id === id)) };
    },
    '/api/videos': () => makePage([makeVideo({ id: 50, title: 'Catalogue video' })]),
  });
  const original = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (input, init) => {
    const match = /^\/api\/me\/continue-watching\/(\d+)$/.exec(new URL(input, 'http://localhost').pathname);
    if (!match) return original(input, init);
    removed.push(`${init?.method} ${match[1]}`);
    held = held.filter((card) => card.id !== Number(match[1]));
    return new Response(null, { status: 204 });
  });
  return { fetchMock, removed };
}

/** The row once it is there (role queries over the whole page are slow in jsdom: find the part, then ask within). */
async function continueRow(): Promise<HTMLElement> {
  const heading = () => [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Continue watching');
  await waitFor(() => expect(heading()).toBeDefined(), { timeout: 3000 });
  return heading()?.closest('section') as HTMLElement;
}

const cardTitles = (row: HTMLElement) => within(row).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('home: Continue watching', () => {
  it('shows a member’s started videos, most recent first, each resuming where it stopped with a progress bar', async () => {
    setup({ row: [started(2, 'Locker room', 125), started(1, 'Pool party', 30, null)] });
    renderRoute('/');
    const row = await continueRow();
    expect(row.getAttribute('aria-labelledby')).toBe(row.querySelector('h2')?.id);
    expect(cardTitles(row)).toEqual(['Locker room', 'Pool party']);

    const locker = within(row).getByRole('link', { name: 'Locker room' });
    expect(locker).toHaveAttribute('href', '/video/2?t=125');
    expect(locker).toHaveAccessibleDescription(expect.stringContaining('Watched 2:05 of 10:00'));
    const bar = locker.querySelector('progress');
    expect(bar).toHaveAttribute('max', '600');
    expect(bar).toHaveAttribute('value', '125');
    // A length unknown: the text says how far, and there is no bar to draw.
    const pool = within(row).getByRole('link', { name: 'Pool party' });
    expect(pool).toHaveAttribute('href', '/video/1?t=30');
    expect(pool).toHaveAccessibleDescription(expect.stringContaining('Watched 0:30'));
    expect(pool.querySelector('progress')).toBeNull();
  });

  it('takes a video out of a member’s row with Remove', async () => {
    const { removed } = setup({ row: [started(2, 'Locker room', 125), started(1, 'Pool party', 30)] });
    renderRoute('/');
    const row = await continueRow();
    await userEvent.click(within(row).getByRole('button', { name: 'Remove Locker room from Continue watching' }));
    await waitFor(() => expect(cardTitles(row)).toEqual(['Pool party']));
    expect(removed).toEqual(['DELETE 2']);
  });

  it('shows no row to a member with nothing started, or whose history is paused', async () => {
    const { fetchMock } = setup({ row: [] });
    const { unmount } = renderRoute('/');
    await screen.findAllByText('Catalogue video');
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/me/continue-watching')).toHaveLength(1));
    expect(screen.queryByText('Continue watching')).toBeNull();
    unmount();

    setup({ row: [started(2, 'Locker room', 125)], paused: true });
    renderRoute('/');
    await screen.findAllByText('Catalogue video');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Continue watching')).toBeNull();
  });

  it('shows a guest the videos started in this browser, and drops those the catalogue no longer has', async () => {
    window.localStorage.setItem('continue_watching', JSON.stringify([{ id: 3, at: 3 }, { id: 9, at: 2 }, { id: 4, at: 1 }, { id: 5, at: 0 }]));
    window.localStorage.setItem('resume_3', '200');
    window.localStorage.setItem('resume_9', '10');
    window.localStorage.setItem('resume_4', '61');
    // Video 5 has no position left (finished elsewhere in this browser): not asked for.
    const { fetchMock } = setup({ user: null, cards: [makeVideo({ id: 4, title: 'Showers', duration: 300 }), makeVideo({ id: 3, title: 'Sauna', duration: 900 })] });
    renderRoute('/');
    const row = await continueRow();
    expect(cardTitles(row)).toEqual(['Sauna', 'Showers']);
    expect(requestedUrls(fetchMock, '/api/cards')[0].searchParams.get('ids')).toBe('3,9,4');
    expect(within(row).getByRole('link', { name: 'Showers' })).toHaveAttribute('href', '/video/4?t=61');
    expect(within(row).getByRole('link', { name: 'Showers' })).toHaveAccessibleDescription(expect.stringContaining('Watched 1:01 of 5:00'));
    expect(requestedUrls(fetchMock, '/api/me/continue-watching')).toEqual([]);
    // Video 9 is gone from the catalogue: this browser forgets it.
    await waitFor(() => expect(JSON.parse(window.localStorage.getItem('continue_watching') ?? '[]').map((e: { id: number }) => e.id)).toEqual([3, 4, 5]));
  });

  it('lets a guest take a video out of the row', async () => {
    window.localStorage.setItem('continue_watching', JSON.stringify([{ id: 3, at: 3 }, { id: 4, at: 1 }]));
    window.localStorage.setItem('resume_3', '200');
    window.localStorage.setItem('resume_4', '61');
    setup({ user: null, cards: [makeVideo({ id: 4, title: 'Showers' }), makeVideo({ id: 3, title: 'Sauna' })] });
    renderRoute('/');
    const row = await continueRow();
    await userEvent.click(within(row).getByRole('button', { name: 'Remove Sauna from Continue watching' }));
    await waitFor(() => expect(cardTitles(row)).toEqual(['Showers']));
    expect(JSON.parse(window.localStorage.getItem('continue_watching') ?? '[]')).toEqual([{ id: 4, at: 1 }]);
  });

  it('asks nothing for a guest who started nothing, and survives a browser holding nonsense', async () => {
    window.localStorage.setItem('continue_watching', '{not json');
    const { fetchMock } = setup({ user: null });
    renderRoute('/');
    await screen.findAllByText('Catalogue video');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Continue watching')).toBeNull();
    expect(requestedUrls(fetchMock, '/api/cards')).toEqual([]);
  });
});
