import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listKeys } from '@/api/lists/keys';
import type { HistoryVideoCard, PlaylistSummary, User, VideoCard } from '@/lib/api/types';
import { makePage, makePlaylist, makeSite, makeUser, makeVideo } from '@/testing/data';
import { json, mockFetch, noContent, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

const NOW = new Date('2026-11-21T12:00:00Z');
const member = makeUser();

type Routes = Parameters<typeof mockFetch>[0];

const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);
const serverError = () => json({ error: 'Internal server error', statusCode: 500 }, 500);
const methodOf = (init: RequestInit | undefined) => init?.method ?? 'GET';

/** The API as a member's list pages meet it; each test adds the routes it is about. */
function setup(routes: Routes = {}, user: User | null = member) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => (user ? { user } : unauthorized()),
    ...routes,
  });
}

/** The card of a video, found by its title. */
function cardFor(title: string): HTMLElement {
  const article = screen.getByRole('heading', { name: title }).closest('article');
  if (!article) throw new Error(`no card for ${title}`);
  return article;
}

/** The methods the mock was called with for one pathname, in order. */
const methodsFor = (fetchMock: ReturnType<typeof mockFetch>, pathname: string) =>
  fetchMock.mock.calls
    .filter(([input]) => new URL(String(input), 'http://localhost').pathname === pathname)
    .map(([, init]) => methodOf(init));

beforeEach(() => {
  // Only Date is faked, so ages are predictable while timers keep running for the queries.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
});

describe('list pages: who may see them', () => {
  it.each([
    ['/me/bookmarks', 'me/bookmarks'],
    ['/me/watch-later?page=2', 'me/watch-later?page=2'],
    ['/me/history', 'me/history'],
    ['/me/likes', 'me/likes'],
    ['/playlists', 'playlists'],
    ['/playlists/5', 'playlists/5'],
  ])('sends a visitor on %s to log in, with a ref back to the page', async (url, ref) => {
    const fetchMock = setup({}, null);

    const { router } = renderRoute(url);

    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(`?ref=${ref}`);
    expect(fetchMock.mock.calls.some(([input]) => /\/api\/(me|playlists)\//.test(String(input)))).toBe(false);
  });

  it.each([
    ['/me/bookmarks', 'Bookmarks'],
    ['/me/watch-later', 'Watch later'],
    ['/me/history', 'History'],
    ['/me/likes', 'Liked videos'],
    ['/playlists', 'Playlists'],
    ['/playlists/5', 'Playlist'],
  ])('shows placeholder cards on %s while the session loads, without sending anyone away', async (url, title) => {
    setup({ '/api/auth/me': () => new Promise(() => {}) });

    const { router } = renderRoute(url);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(`Loading ${title.toLowerCase()}…`);
    expect(router.state.location.pathname).toBe(url);
  });

  it.each([
    ['/me/watch-later', '/api/me/watch-later', 'Loading watch later…'],
    ['/playlists', '/api/playlists/get-user-playlists', 'Loading playlists…'],
    ['/playlists/5', '/api/playlists/5', 'Loading playlist…'],
  ])('shows placeholder cards on %s while the list loads', async (url, endpoint, text) => {
    setup({ [endpoint]: () => new Promise(() => {}), '/api/me/history/paused': () => ({ paused: false }) });

    renderRoute(url);

    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Browse videos' })).not.toBeInTheDocument();
  });

  it('offers tabs between the lists, marking the current one', async () => {
    setup({ '/api/me/likes': () => makePage([]) });

    renderRoute('/me/likes');

    const tabs = within(await screen.findByRole('navigation', { name: 'Your lists' }));
    expect(tabs.getByRole('link', { name: 'Liked videos' })).toHaveAttribute('aria-current', 'page');
    expect(tabs.getByRole('link', { name: 'Bookmarks' })).toHaveAttribute('href', '/me/bookmarks');
    expect(tabs.getByRole('link', { name: 'Watch later' })).toHaveAttribute('href', '/me/watch-later');
    expect(tabs.getByRole('link', { name: 'History' })).toHaveAttribute('href', '/me/history');
    expect(tabs.getByRole('link', { name: 'Playlists' })).toHaveAttribute('href', '/playlists');
  });
});

describe('bookmarks', () => {
  const pool = makeVideo({ id: 7, title: 'Pool party', views: 1234 });
  const beach = makeVideo({ id: 8, title: 'Beach day' });

  it('shows the bookmarked videos as cards opening their watch pages, with the count', async () => {
    const fetchMock = setup({ '/api/me/bookmarks': () => makePage([pool, beach]) });

    renderRoute('/me/bookmarks');

    expect(await screen.findByRole('heading', { name: 'Pool party' })).toBeInTheDocument();
    expect(within(cardFor('Pool party')).getByRole('link', { name: 'Pool party' })).toHaveAttribute('href', '/video/7');
    expect(within(cardFor('Beach day')).getByRole('link', { name: 'Beach day' })).toHaveAttribute('href', '/video/8');
    expect(screen.getByText('2 videos')).toBeInTheDocument();
    const [url] = requestedUrls(fetchMock, '/api/me/bookmarks');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('limit')).toBe('24');
  });

  it('says how to bookmark when there is nothing yet, with a link to browse', async () => {
    setup({ '/api/me/bookmarks': () => makePage([]) });

    renderRoute('/me/bookmarks');

    expect(await screen.findByText(/You have not bookmarked any videos yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse videos' })).toHaveAttribute('href', '/');
  });

  it('reads the page from ?page= and moves between pages', async () => {
    const fetchMock = setup({
      '/api/me/bookmarks': (url) =>
        url.searchParams.get('page') === '2'
          ? makePage([beach], { page: 2, total: 25 })
          : makePage([pool], { page: 1, total: 25 }),
    });
    const user = userEvent.setup();

    const { router } = renderRoute('/me/bookmarks?page=2');

    expect(await screen.findByRole('heading', { name: 'Beach day' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(requestedUrls(fetchMock, '/api/me/bookmarks')[0].searchParams.get('page')).toBe('2');

    await user.click(screen.getByRole('link', { name: '← Previous' }));

    expect(await screen.findByRole('heading', { name: 'Pool party' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next →' })).toHaveAttribute('href', '/me/bookmarks?page=2');
  });

  it('says so when the list cannot be loaded, and reads it again on Try again', async () => {
    let fail = true;
    setup({ '/api/me/bookmarks': () => (fail ? serverError() : makePage([pool])) });
    const user = userEvent.setup();

    renderRoute('/me/bookmarks');

    expect(await screen.findByRole('alert')).toHaveTextContent('Your bookmarks could not be loaded.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: 'Pool party' })).toBeInTheDocument();
  });

  it("removes a bookmark for the member, and the watch page's copy of the list is read again", async () => {
    let bookmarks = [pool, beach];
    const fetchMock = setup({
      '/api/me/bookmarks': () => makePage(bookmarks),
      '/api/video/add-to-bookmarks': (_url, init) => {
        const { videoId } = JSON.parse(String(init?.body)) as { videoId: number };
        bookmarks = bookmarks.filter((video) => video.id !== videoId);
        return { bookmarked: false, error: null };
      },
    });
    const user = userEvent.setup();

    const { queryClient } = renderRoute('/me/bookmarks');
    queryClient.setQueryData(listKeys.allBookmarks(member.id), { bookmarks: [pool, beach], error: null });
    await screen.findByRole('heading', { name: 'Pool party' });

    await user.click(screen.getByRole('button', { name: 'Remove Pool party from bookmarks' }));

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Pool party' })).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Beach day' })).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/video/add-to-bookmarks')).toEqual([
      { video: pool, videoId: 7, userId: member.id, action: 'delete' },
    ]);
    expect(queryClient.getQueryState(listKeys.allBookmarks(member.id))?.isInvalidated).toBe(true);
  });

  it('keeps the card and says so when the bookmark cannot be removed', async () => {
    setup({
      '/api/me/bookmarks': () => makePage([pool]),
      '/api/video/add-to-bookmarks': serverError,
    });
    const user = userEvent.setup();

    renderRoute('/me/bookmarks');
    await user.click(await screen.findByRole('button', { name: 'Remove Pool party from bookmarks' }));

    expect(await within(cardFor('Pool party')).findByRole('alert')).toHaveTextContent('Could not remove it.');
  });
});

describe('watch later', () => {
  const first = makeVideo({ id: 11, title: 'First in line' });
  const second = makeVideo({ id: 12, title: 'Second in line' });

  it('opens every video in the watch-later context, and plays the queue from its first video', async () => {
    setup({ '/api/me/watch-later': () => makePage([first, second]) });

    renderRoute('/me/watch-later');

    await screen.findByRole('heading', { name: 'First in line' });
    expect(within(cardFor('First in line')).getByRole('link', { name: 'First in line' })).toHaveAttribute(
      'href',
      '/video/11?context=watch-later',
    );
    expect(within(cardFor('Second in line')).getByRole('link', { name: 'Second in line' })).toHaveAttribute(
      'href',
      '/video/12?context=watch-later',
    );
    expect(screen.getByRole('link', { name: 'Play all' })).toHaveAttribute('href', '/video/11?context=watch-later');
  });

  it('says the queue is empty, without Play all', async () => {
    setup({ '/api/me/watch-later': () => makePage([]) });

    renderRoute('/me/watch-later');

    expect(await screen.findByText(/Your watch-later queue is empty/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Play all' })).not.toBeInTheDocument();
  });

  it('takes a video off the queue with the contract body, and the watch page reads its queue again', async () => {
    let queue = [first, second];
    const fetchMock = setup({
      '/api/me/watch-later': () => makePage(queue),
      '/api/video/add-to-watch-later': (_url, init) => {
        const { videoId } = JSON.parse(String(init?.body)) as { videoId: number };
        queue = queue.filter((video) => video.id !== videoId);
        return { queued: false, error: null };
      },
    });
    const user = userEvent.setup();

    const { queryClient } = renderRoute('/me/watch-later');
    queryClient.setQueryData(listKeys.queue(member.id), makePage([first, second]));
    await user.click(await screen.findByRole('button', { name: 'Remove Second in line from watch later' }));

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Second in line' })).not.toBeInTheDocument());
    expect(sentBodies(fetchMock, '/api/video/add-to-watch-later')).toEqual([
      { videoId: 12, userId: member.id, action: 'delete' },
    ]);
    expect(queryClient.getQueryState(listKeys.queue(member.id))?.isInvalidated).toBe(true);
  });
});

describe('liked videos', () => {
  it('shows the liked videos, each of which can be removed: the like is taken back', async () => {
    let liked = [makeVideo({ id: 21, title: 'Loved it' }), makeVideo({ id: 22, title: 'Also good' })];
    window.localStorage.setItem('liked_21', 'true');
    const fetchMock = setup({
      '/api/me/likes': () => makePage(liked),
      '/api/video/remove-like': (_url, init) => {
        const { videoId } = JSON.parse(String(init?.body)) as { videoId: number };
        liked = liked.filter((video) => video.id !== videoId);
        return { likes: 4 };
      },
    });
    const user = userEvent.setup();

    renderRoute('/me/likes');
    expect(await screen.findByRole('heading', { level: 1, name: 'Liked videos' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Loved it' })).toHaveAttribute('href', '/video/21');
    await user.click(screen.getByRole('button', { name: 'Remove Loved it from liked videos' }));

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Loved it' })).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Also good' })).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/video/remove-like')).toEqual([{ videoId: 21 }]);
    expect(window.localStorage.getItem('liked_21')).toBeNull();
  });

  it('takes a video off the list that was already unliked elsewhere (409 NOT_LIKED)', async () => {
    let liked = [makeVideo({ id: 23, title: 'Unliked on the phone' })];
    setup({
      '/api/me/likes': () => makePage(liked),
      '/api/video/remove-like': () => {
        liked = [];
        return json({ error: 'You do not like this video', errorCode: 'NOT_LIKED', statusCode: 409 }, 409);
      },
    });
    const user = userEvent.setup();

    renderRoute('/me/likes');
    await user.click(await screen.findByRole('button', { name: 'Remove Unliked on the phone from liked videos' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Unliked on the phone' })).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps the video and says so when taking the like back fails', async () => {
    setup({
      '/api/me/likes': () => makePage([makeVideo({ id: 24, title: 'Still liked' })]),
      '/api/video/remove-like': () => json({ error: 'Service unavailable', statusCode: 503 }, 503),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();

    renderRoute('/me/likes');
    await user.click(await screen.findByRole('button', { name: 'Remove Still liked from liked videos' }));
    expect(await within(cardFor('Still liked')).findByRole('alert')).toHaveTextContent('Could not remove it. Try again.');
  });

  it('says how to like a video when there are none', async () => {
    setup({ '/api/me/likes': () => makePage([]) });

    renderRoute('/me/likes');

    expect(await screen.findByText(/Videos you like show up here/)).toBeInTheDocument();
  });
});

describe('history', () => {
  const watched = (overrides: Partial<HistoryVideoCard>): HistoryVideoCard => ({ ...makeVideo(overrides), ...overrides });

  const seenToday = watched({ id: 31, title: 'Seen today', watched_at: '2026-11-21T10:00:00Z' });

  function setupHistory({ paused = false, videos = [seenToday] } = {}) {
    let history = videos;
    let isPaused = paused;
    const fetchMock = setup({
      '/api/me/history': (_url, init) => {
        if (methodOf(init) === 'DELETE') {
          history = [];
          return noContent();
        }
        return makePage(history);
      },
      '/api/me/history/paused': (_url, init) => {
        if (methodOf(init) === 'PUT') isPaused = (JSON.parse(String(init?.body)) as { paused: boolean }).paused;
        return { paused: isPaused };
      },
    });
    return fetchMock;
  }

  it('shows when each video was watched', async () => {
    setupHistory({
      videos: [
        watched({ id: 31, title: 'Seen today', watched_at: '2026-11-21T10:00:00Z' }),
        watched({ id: 32, title: 'Seen last week', watched_at: '2026-11-11T12:00:00Z' }),
      ],
    });

    renderRoute('/me/history');

    await screen.findByRole('heading', { name: 'Seen today' });
    expect(within(cardFor('Seen today')).getByText(/^Watched/)).toHaveTextContent('Watched 2 hours ago');
    expect(within(cardFor('Seen last week')).getByText(/^Watched/)).toHaveTextContent('Watched 1 week ago');
  });

  it('says that watching is recorded, and pauses it', async () => {
    const fetchMock = setupHistory({ paused: false });
    const user = userEvent.setup();

    renderRoute('/me/history');

    expect(await screen.findByText('Your viewing history is being recorded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pause history' }));

    expect(await screen.findByText('History is paused: videos you watch are not being recorded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume history' })).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/me/history/paused')).toEqual([undefined, { paused: true }]);
    expect(methodsFor(fetchMock, '/api/me/history/paused')).toEqual(['GET', 'PUT']);
  });

  it('says that history is paused, and resumes it', async () => {
    const fetchMock = setupHistory({ paused: true });
    const user = userEvent.setup();

    renderRoute('/me/history');

    expect(await screen.findByText('History is paused: videos you watch are not being recorded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resume history' }));

    expect(await screen.findByText('Your viewing history is being recorded.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/me/history/paused').at(-1)).toEqual({ paused: false });
  });

  it('keeps the state and says so when pausing fails', async () => {
    setup({
      '/api/me/history': () => makePage([]),
      '/api/me/history/paused': (_url, init) => (methodOf(init) === 'PUT' ? serverError() : { paused: false }),
    });
    const user = userEvent.setup();

    renderRoute('/me/history');
    await user.click(await screen.findByRole('button', { name: 'Pause history' }));

    expect(await screen.findByText(/History could not be paused/)).toBeInTheDocument();
    expect(screen.getByText('Your viewing history is being recorded.')).toBeInTheDocument();
  });

  it('does nothing when Clear history is cancelled', async () => {
    const fetchMock = setupHistory();
    const user = userEvent.setup();

    renderRoute('/me/history');
    await screen.findByRole('heading', { name: 'Seen today' });
    await user.click(screen.getByRole('button', { name: 'Clear history' }));

    const dialog = screen.getByRole('dialog', { name: 'Clear your history?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Seen today' })).toBeInTheDocument();
    expect(methodsFor(fetchMock, '/api/me/history')).not.toContain('DELETE');
  });

  it('clears the history once confirmed, and shows it empty', async () => {
    const fetchMock = setupHistory();
    const user = userEvent.setup();

    renderRoute('/me/history');
    await screen.findByRole('heading', { name: 'Seen today' });
    await user.click(screen.getByRole('button', { name: 'Clear history' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Clear history' }));

    expect(await screen.findByText('Your history was cleared.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Seen today' })).not.toBeInTheDocument();
    expect(screen.getByText(/Videos you watch while signed in show up here/)).toBeInTheDocument();
    expect(methodsFor(fetchMock, '/api/me/history')).toContain('DELETE');
    expect(screen.getByRole('button', { name: 'Clear history' })).toBeDisabled();
  });

  it('keeps the history and says so in the dialog when clearing fails', async () => {
    setup({
      '/api/me/history': (_url, init) =>
        methodOf(init) === 'DELETE' ? serverError() : makePage([watched({ id: 31, title: 'Seen today' })]),
      '/api/me/history/paused': () => ({ paused: false }),
    });
    const user = userEvent.setup();

    renderRoute('/me/history');
    await screen.findByRole('heading', { name: 'Seen today' });
    await user.click(screen.getByRole('button', { name: 'Clear history' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Clear history' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your history could not be cleared.');
    expect(screen.getByRole('heading', { name: 'Seen today' })).toBeInTheDocument();
  });
});

describe('playlists', () => {
  const roadTrip = makePlaylist({ playlist_id: 5, title: 'Road trip', video_count: 3, thumbnail: '/thumbs/road/poster.jpg' });
  const gym = makePlaylist({ playlist_id: 6, title: 'Gym', video_count: 1, thumbnail: null });

  function setupPlaylists(initial: PlaylistSummary[] = [roadTrip, gym], routes: Routes = {}) {
    let playlists = initial;
    return setup({
      '/api/playlists/get-user-playlists': () => ({ data: playlists, error: null }),
      '/api/playlists/5': (_url, init) => {
        if (methodOf(init) === 'DELETE') {
          playlists = playlists.filter((playlist) => playlist.playlist_id !== 5);
          return noContent();
        }
        const { title } = JSON.parse(String(init?.body)) as { title: string };
        playlists = playlists.map((playlist) => (playlist.playlist_id === 5 ? { ...playlist, title } : playlist));
        return { playlist: { playlist_id: 5, title, user_id: member.id } };
      },
      ...routes,
    });
  }

  it('shows each playlist with its thumbnail, title and video count, opening its page', async () => {
    setupPlaylists();

    renderRoute('/playlists');

    const road = (await screen.findByRole('heading', { name: 'Road trip' })).closest('article') as HTMLElement;
    expect(within(road).getByRole('link', { name: 'Road trip' })).toHaveAttribute('href', '/playlists/5');
    expect(within(road).getByText('3 videos')).toBeInTheDocument();
    expect(road.querySelector('img')).toHaveAttribute('src', 'https://img.example.com/thumbs/road/poster.jpg');
    const gymCard = screen.getByRole('heading', { name: 'Gym' }).closest('article') as HTMLElement;
    expect(within(gymCard).getByText('1 video')).toBeInTheDocument();
    expect(gymCard.querySelector('.thumbnail__placeholder')).toBeInTheDocument();
  });

  it('says how to make a playlist when there are none', async () => {
    setupPlaylists([]);

    renderRoute('/playlists');

    expect(await screen.findByText(/You have no playlists yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse videos' })).toHaveAttribute('href', '/');
  });

  it('says so when the playlists cannot be loaded', async () => {
    setup({ '/api/playlists/get-user-playlists': serverError });

    renderRoute('/playlists');

    expect(await screen.findByRole('alert')).toHaveTextContent('Your playlists could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('checks a new title with the playlist title rule before sending it', async () => {
    const fetchMock = setupPlaylists();
    const user = userEvent.setup();

    renderRoute('/playlists');
    await user.click(await screen.findByRole('button', { name: 'Rename Road trip' }));
    const field = screen.getByLabelText('Playlist title');
    expect(field).toHaveValue('Road trip');
    expect(field).toHaveAttribute('maxLength', '40');

    await user.clear(field);
    await user.type(field, '   ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent('You need to give your new playlist a title');
    expect(field).toHaveAttribute('aria-invalid', 'true');

    await user.clear(field);
    await user.type(field, 'abc');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Title contains invalid characters or is too short (must be at least 4 characters)',
    );

    await user.clear(field);
    await user.type(field, 'Road <trip>');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Title contains invalid characters');

    expect(methodsFor(fetchMock, '/api/playlists/5')).toEqual([]);
  });

  it('tells the member they already have a playlist with that title', async () => {
    setupPlaylists([roadTrip, gym], {
      '/api/playlists/5': () => json({ error: 'duplicate key value', errorCode: '23505', statusCode: 409 }, 409),
    });
    const user = userEvent.setup();

    renderRoute('/playlists');
    await user.click(await screen.findByRole('button', { name: 'Rename Road trip' }));
    const field = screen.getByLabelText('Playlist title');
    await user.clear(field);
    await user.type(field, 'Gym sessions');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('You already have a playlist called “Gym sessions”.');
    expect(screen.getByLabelText('Playlist title')).toBeInTheDocument();
  });

  it('renames a playlist with the trimmed title, and gives focus back to Rename', async () => {
    const fetchMock = setupPlaylists();
    const user = userEvent.setup();

    renderRoute('/playlists');
    await user.click(await screen.findByRole('button', { name: 'Rename Road trip' }));
    const reads = requestedUrls(fetchMock, '/api/playlists/get-user-playlists').length;
    const field = screen.getByLabelText('Playlist title');
    await user.clear(field);
    await user.type(field, '  Summer road trip  {Enter}');

    expect(await screen.findByRole('heading', { name: 'Summer road trip' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Playlist title')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rename Summer road trip' })).toHaveFocus();
    expect(sentBodies(fetchMock, '/api/playlists/5')).toEqual([{ title: 'Summer road trip' }]);
    expect(methodsFor(fetchMock, '/api/playlists/5')[0]).toBe('PATCH');
    // One list of playlists serves this page and the watch page's picker: it is read again.
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/playlists/get-user-playlists').length).toBeGreaterThan(reads));
  });

  it('closes the rename form on Cancel without sending anything', async () => {
    const fetchMock = setupPlaylists();
    const user = userEvent.setup();

    renderRoute('/playlists');
    await user.click(await screen.findByRole('button', { name: 'Rename Road trip' }));
    await user.type(screen.getByLabelText('Playlist title'), ' again');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByLabelText('Playlist title')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Road trip' })).toBeInTheDocument();
    expect(methodsFor(fetchMock, '/api/playlists/5')).toEqual([]);
  });

  it('deletes a playlist only once the dialog is confirmed', async () => {
    const fetchMock = setupPlaylists();
    const user = userEvent.setup();

    renderRoute('/playlists');
    await user.click(await screen.findByRole('button', { name: 'Delete Road trip' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete this playlist?' });
    expect(dialog).toHaveTextContent('“Road trip” will be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(methodsFor(fetchMock, '/api/playlists/5')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Road trip' }));
    dialog = screen.getByRole('dialog', { name: 'Delete this playlist?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete playlist' }));

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Road trip' })).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('Deleted “Road trip”.');
    expect(screen.getByRole('heading', { name: 'Gym' })).toBeInTheDocument();
    expect(methodsFor(fetchMock, '/api/playlists/5')).toEqual(['DELETE']);
  });
});

describe('a playlist', () => {
  const videos = [
    makeVideo({ id: 1, title: 'Opening act' }),
    makeVideo({ id: 2, title: 'Middle part' }),
    makeVideo({ id: 3, title: 'Grand finale' }),
  ];

  /**
   * A playlist 5 whose order and contents the mock API keeps. When the order call fails, the playlist is not
   * answered again, so only the page itself can put the previous order back.
   */
  function setupPlaylist({ reorderFails = false, items = videos } = {}) {
    let order = items;
    let reads = 0;
    return setup({
      '/api/playlists/5': (_url, init) => {
        if (methodOf(init) === 'DELETE') return noContent();
        reads += 1;
        if (reorderFails && reads > 1) return new Promise(() => {});
        return { playlist: { playlist_id: 5, title: 'Road trip', user_id: member.id }, data: order };
      },
      '/api/playlists/5/order': (_url, init) => {
        if (reorderFails) return serverError();
        const { video_ids: ids } = JSON.parse(String(init?.body)) as { video_ids: number[] };
        order = ids.map((id) => order.find((video) => video.id === id) as VideoCard);
        return noContent();
      },
      '/api/playlists/5/videos/2': () => {
        order = order.filter((video) => video.id !== 2);
        return noContent();
      },
      '/api/playlists/get-user-playlists': () => ({ data: [], error: null }),
    });
  }

  const shownOrder = () =>
    within(screen.getByRole('list', { name: 'Videos in this playlist' }))
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);

  it('shows the title and the videos in order, each opening in the playlist context, and Play all', async () => {
    setupPlaylist();

    renderRoute('/playlists/5');

    expect(await screen.findByRole('heading', { level: 1, name: 'Road trip' })).toBeInTheDocument();
    expect(screen.getByText('3 videos')).toBeInTheDocument();
    expect(shownOrder()).toEqual(['Opening act', 'Middle part', 'Grand finale']);
    expect(screen.getByRole('link', { name: 'Middle part' })).toHaveAttribute(
      'href',
      '/video/2?context=playlist&playlist=5',
    );
    expect(screen.getByRole('link', { name: 'Play all' })).toHaveAttribute('href', '/video/1?context=playlist&playlist=5');
    expect(screen.getByRole('button', { name: 'Move Opening act up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Grand finale down' })).toBeDisabled();
  });

  it('moves a video down with its button, sending the whole new order and keeping the focus on it', async () => {
    const fetchMock = setupPlaylist();
    const user = userEvent.setup();

    renderRoute('/playlists/5');
    await user.click(await screen.findByRole('button', { name: 'Move Opening act down' }));

    expect(shownOrder()).toEqual(['Middle part', 'Opening act', 'Grand finale']);
    await waitFor(() => expect(sentBodies(fetchMock, '/api/playlists/5/order')).toEqual([{ video_ids: [2, 1, 3] }]));
    expect(methodsFor(fetchMock, '/api/playlists/5/order')).toEqual(['PUT']);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Opening act down' })).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent('Moved Opening act to position 2 of 3.');
    // One copy of the playlist serves this page and the watch page: it is read again once the order is saved.
    await waitFor(() => expect(methodsFor(fetchMock, '/api/playlists/5').filter((method) => method === 'GET')).toHaveLength(2));
  });

  it('moves a video up from the keyboard', async () => {
    const fetchMock = setupPlaylist();
    const user = userEvent.setup();

    renderRoute('/playlists/5');
    (await screen.findByRole('button', { name: 'Move Grand finale up' })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(shownOrder()).toEqual(['Opening act', 'Grand finale', 'Middle part']));
    await user.keyboard('{Enter}');

    await waitFor(() => expect(shownOrder()).toEqual(['Grand finale', 'Opening act', 'Middle part']));
    await waitFor(() =>
      expect(sentBodies(fetchMock, '/api/playlists/5/order')).toEqual([{ video_ids: [1, 3, 2] }, { video_ids: [3, 1, 2] }]),
    );
    // At the top Move up is disabled: the focus moves to Move down of the same video.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Grand finale down' })).toHaveFocus());
  });

  it('reorders by dragging a video onto another', async () => {
    const fetchMock = setupPlaylist();

    renderRoute('/playlists/5');
    await screen.findByRole('heading', { name: 'Grand finale' });
    const item = (title: string) => screen.getByRole('heading', { name: title }).closest('li') as HTMLElement;
    const dataTransfer = { setData: vi.fn(), effectAllowed: 'none', dropEffect: 'none' };

    fireEvent.dragStart(item('Grand finale'), { dataTransfer });
    fireEvent.dragOver(item('Opening act'), { dataTransfer });
    fireEvent.drop(item('Opening act'), { dataTransfer });

    await waitFor(() => expect(shownOrder()).toEqual(['Grand finale', 'Opening act', 'Middle part']));
    await waitFor(() => expect(sentBodies(fetchMock, '/api/playlists/5/order')).toEqual([{ video_ids: [3, 1, 2] }]));
  });

  it('puts the previous order back and says so when the new order cannot be saved', async () => {
    setupPlaylist({ reorderFails: true });
    const user = userEvent.setup();

    renderRoute('/playlists/5');
    await user.click(await screen.findByRole('button', { name: 'Move Opening act down' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The new order could not be saved, so the playlist is back in its previous order.',
    );
    expect(shownOrder()).toEqual(['Opening act', 'Middle part', 'Grand finale']);

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('removes a video from the playlist', async () => {
    const fetchMock = setupPlaylist();
    const user = userEvent.setup();

    renderRoute('/playlists/5');
    await user.click(await screen.findByRole('button', { name: 'Remove Middle part from this playlist' }));

    await waitFor(() => expect(shownOrder()).toEqual(['Opening act', 'Grand finale']));
    expect(methodsFor(fetchMock, '/api/playlists/5/videos/2')).toEqual(['DELETE']);
    expect(screen.getByText('2 videos')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Removed Middle part from the playlist.');
  });

  it('says so when a video cannot be removed, and keeps it', async () => {
    setup({
      '/api/playlists/5': () => ({ playlist: { playlist_id: 5, title: 'Road trip', user_id: member.id }, data: videos }),
      '/api/playlists/5/videos/2': serverError,
      '/api/playlists/get-user-playlists': () => ({ data: [], error: null }),
    });
    const user = userEvent.setup();

    renderRoute('/playlists/5');
    await user.click(await screen.findByRole('button', { name: 'Remove Middle part from this playlist' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Middle part could not be removed from the playlist.');
    expect(shownOrder()).toEqual(['Opening act', 'Middle part', 'Grand finale']);
  });

  it('says the playlist is empty, without Play all', async () => {
    setupPlaylist({ items: [] });

    renderRoute('/playlists/5');

    expect(await screen.findByText(/This playlist is empty/)).toBeInTheDocument();
    expect(screen.getByText('0 videos')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Play all' })).not.toBeInTheDocument();
  });

  it('goes back to the playlists once the playlist is deleted', async () => {
    const fetchMock = setupPlaylist();
    const user = userEvent.setup();

    const { router } = renderRoute('/playlists/5');
    await user.click(await screen.findByRole('button', { name: 'Delete Road trip' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete playlist' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/playlists'));
    expect(methodsFor(fetchMock, '/api/playlists/5')).toContain('DELETE');
  });

  it('says when the playlist does not exist', async () => {
    setup({ '/api/playlists/9': () => json({ error: 'Playlist not found', statusCode: 404 }, 404) });

    renderRoute('/playlists/9');

    expect(await screen.findByRole('heading', { level: 1, name: 'Playlist not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your playlists' })).toHaveAttribute('href', '/playlists');
  });

  it("says when the playlist is another member's", async () => {
    setup({ '/api/playlists/9': () => json({ error: 'Not your playlist', statusCode: 403 }, 403) });

    renderRoute('/playlists/9');

    expect(await screen.findByRole('heading', { level: 1, name: 'This playlist is not yours' })).toBeInTheDocument();
  });

  it('shows the page-not-found page for an id that cannot be a playlist', async () => {
    const fetchMock = setup();

    renderRoute('/playlists/abc');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(requestedUrls(fetchMock, '/api/playlists/abc')).toEqual([]);
  });
});
