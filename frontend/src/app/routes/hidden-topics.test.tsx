import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User, VideoCard } from '@/lib/api/types';
import { readHiddenCookie } from '@/lib/hidden-topics';
import { makePage, makeSite, makeUser, makeVideo, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, noContent, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

// The watch page's player needs Media Source Extensions, which jsdom lacks (watch.test.tsx tests it).
vi.mock('@/features/watch/hooks/use-hls', () => ({
  useHls: vi.fn(() => ({ levels: [], level: -1, setLevel: () => {} })),
}));

const member = makeUser();
const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);
const taxa = (...entries: [id: string, name: string][]) => ({ data: entries.map(([id, name]) => ({ id, name, video_count: 3 })) });

interface Topics {
  categories: string[];
  performers: string[];
  tags: string[];
}
const none = (): Topics => ({ categories: [], performers: [], tags: [] });

/**
 * The API of a guest (`user` null) or a member whose stored list is `stored` (PUT replaces it, as the API does,
 * unless `refuse` answers instead); the catalogue answers `videos` to every listing.
 */
function setup({ user = null as User | null, stored = none(), refuse = null as Response | null, videos = [makeVideo({ id: 1, title: 'Pool party' })], routes = {} } = {}) {
  let list = stored;
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => (user ? { user } : unauthorized()),
    '/api/videos': () => makePage(videos),
    '/api/categories': () => taxa(['muscle', 'Muscle'], ['outdoor', 'Outdoor']),
    '/api/performers': () => taxa(['alex-ray', 'Alex Ray'], ['ben-cole', 'Ben Cole']),
    '/api/tags': () => taxa(['poolside', 'Poolside'], ['beach', 'Beach']),
    '/api/me/following': () => ({ data: [] }),
    '/api/me/followed-videos': () => makePage([]),
    '/api/me/continue-watching': () => ({ data: [], paused: false }),
    '/api/me/hidden': (_url, init) => {
      if (!user) return unauthorized();
      if (init?.method !== 'PUT') return list;
      if (refuse) return refuse;
      list = JSON.parse(String(init.body)) as Topics;
      return list;
    },
    ...routes,
  });
}

const hiddenPuts = (fetchMock: ReturnType<typeof mockFetch>) => sentBodies(fetchMock, '/api/me/hidden').filter((body) => body !== undefined);
/** A hidden topic's name in its list (the Unhide button names it too). */
const NAME = { selector: '.hidden-topics__name' };
const setCookie = (value: string) => {
  document.cookie = `hidden_topics=${encodeURIComponent(value)}; Path=/`;
};
/** The grid's requests (home's featured row asks separately). */
const gridRequests = (fetchMock: ReturnType<typeof mockFetch>) => requestedUrls(fetchMock, '/api/videos').filter((url) => !url.searchParams.has('featured'));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('"Hide this category" on its page', () => {
  it('for a guest: a toggle kept in the cookie, the note with the way to the settings, the listing read again without it', async () => {
    const fetchMock = setup({ videos: [] });
    const user = userEvent.setup();
    renderRoute('/categories/muscle');

    const hide = await screen.findByRole('button', { name: 'Hide this category' });
    expect(hide).toHaveAttribute('aria-pressed', 'false');
    expect(await screen.findByText('No videos in this category yet.')).toBeInTheDocument();
    expect(gridRequests(fetchMock).every((url) => !url.searchParams.has('exclude'))).toBe(true);

    await user.click(hide);
    await waitFor(() => expect(hide).toHaveAttribute('aria-pressed', 'true'));
    expect(readHiddenCookie()).toBe('category:muscle');
    const note = document.querySelector('.hide-topic-status') as HTMLElement;
    expect(note).toHaveAttribute('role', 'status');
    expect(note).toHaveTextContent('Videos in this category are hidden: they are left out of every listing, search, related row and Continue watching, this page included, in this browser.');
    expect(within(note).getByRole('link', { name: 'Your hidden topics' })).toHaveAttribute('href', '/me/hidden');
    // The page's own listing leaves them out too, and says why it is empty.
    await waitFor(() => expect(gridRequests(fetchMock).at(-1)?.searchParams.get('exclude')).toBe('category:muscle'));
    expect(gridRequests(fetchMock).at(-1)?.searchParams.get('category')).toBe('muscle');
    expect(await screen.findByText('This category is hidden, so its videos are not shown here.')).toBeInTheDocument();
    // The button keeps its name and its focus.
    expect(hide).toHaveFocus();

    await user.click(hide);
    await waitFor(() => expect(hide).toHaveAttribute('aria-pressed', 'false'));
    expect(readHiddenCookie()).toBe('');
    expect(note).not.toHaveTextContent(/hidden/);
  });

  it('draws a topic hidden in the cookie as hidden from the start, on a performer’s and a tag’s page too', async () => {
    setCookie('performer:ben-cole,tag:poolside');
    setup({ routes: { '/api/tags/poolside': () => ({ id: 'poolside', name: 'Poolside', video_count: 2 }) } });
    const { unmount } = renderRoute('/performers/ben-cole');
    expect(await screen.findByRole('button', { name: 'Hide this performer' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/Videos with this performer are hidden/)).toBeInTheDocument();
    unmount();

    renderRoute('/tags/poolside');
    expect(await screen.findByRole('button', { name: 'Hide this tag' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/Videos with this tag are hidden/)).toBeInTheDocument();
  });

  it('for a member: waits for their list, PUTs the change and reads the listing again', async () => {
    const fetchMock = setup({ user: member, stored: { categories: [], performers: [], tags: ['beach'] } });
    const user = userEvent.setup();
    renderRoute('/categories/muscle');

    const hide = await screen.findByRole('button', { name: 'Hide this category' });
    await waitFor(() => expect(hide).toBeEnabled());
    const reads = gridRequests(fetchMock).length;
    await user.click(hide);
    await waitFor(() => expect(hide).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => expect(hiddenPuts(fetchMock)).toEqual([{ categories: ['muscle'], performers: [], tags: ['beach'] }]));
    // The API leaves the member's hidden topics out by itself: the listing is asked again, without exclude.
    await waitFor(() => expect(gridRequests(fetchMock).length).toBeGreaterThan(reads));
    expect(gridRequests(fetchMock).every((url) => !url.searchParams.has('exclude'))).toBe(true);
    expect(screen.getByText(/this page included, wherever you are logged in\./)).toBeInTheDocument();
    expect(readHiddenCookie()).toBe('');
  });

  it('shows why a member’s change was refused, and the button as it was', async () => {
    setup({ user: member, refuse: json({ error: 'Unknown category: muscle', statusCode: 400 }, 400) });
    const user = userEvent.setup();
    renderRoute('/categories/muscle');
    const hide = await screen.findByRole('button', { name: 'Hide this category' });
    await waitFor(() => expect(hide).toBeEnabled());
    await user.click(hide);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your hidden topics were not saved: Unknown category: muscle');
    await waitFor(() => expect(hide).toHaveAttribute('aria-pressed', 'false'));
  });
});

describe('the hidden topics page (/me/hidden)', () => {
  it('lists a guest’s hidden topics by name, unhides one, hides one picked from a list, and unhides all', async () => {
    setCookie('category:muscle,performer:ben-cole,tag:poolside,tag:gone-tag');
    setup();
    const user = userEvent.setup();
    renderRoute('/me/hidden');

    expect(await screen.findByRole('heading', { level: 1, name: 'Hidden topics' })).toBeInTheDocument();
    expect(document.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    expect(await screen.findByText(/this list is kept in this browser/)).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?ref=me/hidden');
    const section = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('section') as HTMLElement;
    await waitFor(() => expect(within(section('Categories')).getByText('Muscle', NAME)).toBeInTheDocument());
    expect(within(section('Performers')).getByText('Ben Cole', NAME)).toBeInTheDocument();
    await waitFor(() => expect(within(section('Tags')).getByText('Poolside', NAME)).toBeInTheDocument());
    // An id the index no longer names shows as it is.
    expect(within(section('Tags')).getByText('gone-tag', NAME)).toBeInTheDocument();

    await user.click(within(section('Tags')).getByRole('button', { name: 'Unhide Poolside' }));
    await waitFor(() => expect(readHiddenCookie()).toBe('category:muscle,performer:ben-cole,tag:gone-tag'));
    await waitFor(() => expect(within(section('Tags')).queryByText('Poolside', NAME)).toBeNull());
    // The focus moves to the next one's button rather than the page's start, and the change is announced.
    expect(within(section('Tags')).getByRole('button', { name: 'Unhide gone-tag' })).toHaveFocus();
    expect(screen.getByText('Poolside is no longer hidden.')).toBeInTheDocument();

    const picker = within(section('Performers')).getByRole('combobox', { name: 'Hide a performer' });
    expect(within(picker).queryByRole('option', { name: 'Ben Cole' })).toBeNull();
    await user.selectOptions(picker, 'Alex Ray');
    await user.click(within(section('Performers')).getByRole('button', { name: 'Hide this performer' }));
    await waitFor(() => expect(readHiddenCookie()).toBe('category:muscle,performer:alex-ray,performer:ben-cole,tag:gone-tag'));
    expect(await within(section('Performers')).findByText('Alex Ray', NAME)).toBeInTheDocument();
    expect(picker).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Unhide all' }));
    const dialog = screen.getByRole('dialog', { name: 'Unhide every topic?' });
    await user.click(within(dialog).getByRole('button', { name: 'Unhide all' }));
    await waitFor(() => expect(readHiddenCookie()).toBe(''));
    expect(await within(section('Categories')).findByText('No category is hidden.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unhide all' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Hidden topics' })).toHaveFocus());
  });

  it('lists a member’s topics from their account and PUTs each change', async () => {
    const fetchMock = setup({ user: member, stored: { categories: ['muscle'], performers: ['alex-ray'], tags: [] } });
    const user = userEvent.setup();
    renderRoute('/me/hidden');

    const unhide = await screen.findByRole('button', { name: 'Unhide Alex Ray' });
    expect(screen.queryByText(/this list is kept in this browser/)).toBeNull();
    await user.click(unhide);
    await waitFor(() => expect(hiddenPuts(fetchMock)).toEqual([{ categories: ['muscle'], performers: [], tags: [] }]));
    expect(await screen.findByText('No performer is hidden.')).toBeInTheDocument();
    // The last of the list gone, the focus goes to the list to hide one from.
    expect(screen.getByRole('combobox', { name: 'Hide a performer' })).toHaveFocus();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Hide a tag' }), 'Beach');
    await user.click(screen.getByRole('button', { name: 'Hide this tag' }));
    await waitFor(() => expect(hiddenPuts(fetchMock)).toHaveLength(2));
    expect(hiddenPuts(fetchMock)[1]).toEqual({ categories: ['muscle'], performers: [], tags: ['beach'] });
  });

  it('offers a member to add what this browser hid before they logged in, then forgets it here', async () => {
    setCookie('category:muscle,tag:beach,performer:ben-cole');
    const fetchMock = setup({ user: member, stored: { categories: ['muscle'], performers: [], tags: [] } });
    const user = userEvent.setup();
    renderRoute('/me/hidden');

    const add = await screen.findByRole('button', { name: 'Add the 2 topics hidden in this browser to your account' });
    await user.click(add);
    await waitFor(() => expect(hiddenPuts(fetchMock)).toEqual([{ categories: ['muscle'], performers: ['ben-cole'], tags: ['beach'] }]));
    await waitFor(() => expect(readHiddenCookie()).toBe(''));
    await waitFor(() => expect(screen.queryByRole('button', { name: /hidden in this browser to your account/ })).toBeNull());
    expect(screen.getByRole('button', { name: 'Unhide Ben Cole' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unhide Beach' })).toBeInTheDocument();
  });

  it('shows the API’s refusal', async () => {
    setup({ user: member, stored: { categories: ['muscle'], performers: [], tags: [] }, refuse: json({ error: 'Too many performers', statusCode: 400 }, 400) });
    const user = userEvent.setup();
    renderRoute('/me/hidden');
    await user.click(await screen.findByRole('button', { name: 'Unhide Muscle' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your hidden topics were not saved: Too many performers');
    expect(await screen.findByRole('button', { name: 'Unhide Muscle' })).toBeInTheDocument();
  });

  it('says when a member’s list cannot be read, and reads it again', async () => {
    let fail = true;
    setup({ user: member, routes: { '/api/me/hidden': () => (fail ? json({ error: 'Database unavailable', statusCode: 503 }, 503) : none()) } });
    const user = userEvent.setup();
    renderRoute('/me/hidden');
    expect(await screen.findByText('Your hidden topics could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No category is hidden.')).toBeInTheDocument();
  });

  it('is linked from a member’s menu', async () => {
    setup({ user: member });
    renderRoute('/');
    const menu = await screen.findByRole('navigation', { name: 'Your account' });
    expect(within(menu).getByRole('link', { name: 'Hidden topics' })).toHaveAttribute('href', '/me/hidden');
  });
});

describe('a guest’s reads carry their hidden topics as exclude', () => {
  it('on home: the grid and the featured row; on search and a filtered listing too, with the filters', async () => {
    setCookie('performer:ben-cole,category:muscle');
    const fetchMock = setup();
    const { unmount } = renderRoute('/?sort=most-viewed');
    await screen.findByText('Pool party');
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/videos').some((url) => url.searchParams.has('featured'))).toBe(true));
    for (const url of requestedUrls(fetchMock, '/api/videos')) expect(url.searchParams.get('exclude')).toBe('category:muscle,performer:ben-cole');
    unmount();

    fetchMock.mockClear();
    renderRoute('/search?q=gym&quality=hd');
    await screen.findByText('Pool party');
    const [search] = gridRequests(fetchMock);
    expect(search.searchParams.get('q')).toBe('gym');
    expect(search.searchParams.get('quality')).toBe('hd');
    expect(search.searchParams.get('exclude')).toBe('category:muscle,performer:ben-cole');
  });

  it('on a watch page: the related row', async () => {
    setCookie('tag:feet');
    const fetchMock = setup({
      routes: {
        '/api/videos/7': () => makeWatchVideo({ id: 7 }),
        '/api/videos/7/related': () => ({ related: true, data: [makeVideo({ id: 21, title: 'Related one' })] }),
        '/api/video/secure': () => ({ secureUrl: '/s/t,1900000000/videos/2024/06/video-7/index.m3u8', expiresAt: '2030-03-17T17:46:40.000Z' }),
        '/api/video/add-trending': noContent,
        '/api/video/increment-views': () => ({ views: 1 }),
      },
    });
    renderRoute('/video/7');
    expect(await screen.findByText('Related one')).toBeInTheDocument();
    const [related] = requestedUrls(fetchMock, '/api/videos/7/related');
    expect(related.searchParams.get('exclude')).toBe('tag:feet');
  });

  it('on home: the guest’s Continue watching cards; what they leave out stays in the row for later', async () => {
    setCookie('category:muscle');
    window.localStorage.setItem('continue_watching', JSON.stringify([{ id: 2, at: 2 }, { id: 3, at: 1 }]));
    window.localStorage.setItem('resume_2', '40');
    window.localStorage.setItem('resume_3', '50');
    // Video 3 is in a hidden category: the API leaves it out.
    const cards: VideoCard[] = [makeVideo({ id: 2, title: 'Started one' })];
    const fetchMock = setup({ routes: { '/api/cards': () => ({ data: cards }) } });
    renderRoute('/');
    expect(await screen.findByText('Started one')).toBeInTheDocument();
    const [request] = requestedUrls(fetchMock, '/api/cards');
    expect(request.searchParams.get('ids')).toBe('2,3');
    expect(request.searchParams.get('exclude')).toBe('category:muscle');
    // Not forgotten as if it were gone from the catalogue.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(JSON.parse(window.localStorage.getItem('continue_watching') ?? '[]')).toHaveLength(2);
  });

  it('not a member’s: the API applies theirs, whatever this browser kept', async () => {
    setCookie('category:muscle');
    const fetchMock = setup({ user: member });
    renderRoute('/');
    // Here the session is read after the page starts (a server's page says it at once, as in entry-server.test.tsx):
    // once it is known, the listings are read without the browser's list.
    await screen.findByRole('navigation', { name: 'Your account' });
    await waitFor(() => expect(gridRequests(fetchMock).at(-1)?.searchParams.has('exclude')).toBe(false));
    expect((await screen.findAllByText('Pool party')).length).toBeGreaterThan(0);
  });
});
