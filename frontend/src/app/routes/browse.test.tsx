import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makePage, makeSite, makeVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

const unauthorized = () => json({ error: 'Unauthorized', statusCode: 401 }, 401);
const taxa = (...entries: [id: string, name: string, count: number][]) => ({
  data: entries.map(([id, name, video_count]) => ({ id, name, video_count })),
});

const muscle = () => ({ id: 'muscle', name: 'Muscle', video_count: 12 });

function setup(routes: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': unauthorized,
    '/api/videos': () => makePage([]),
    '/api/categories': () => taxa(['muscle', 'Muscle', 12], ['outdoor', 'Outdoor', 3], ['empty-one', 'Empty One', 0]),
    '/api/performers': () => taxa(['alex-ray', 'Alex Ray', 5], ['ben-cole', 'Ben Cole', 9]),
    '/api/tags': () => taxa(['poolside', 'Poolside', 2], ['muscle', 'Muscle', 12], ['leather', 'Leather', 0], ['beach', 'Beach', 1]),
    // A synonym answers as its tag (muscled → muscle).
    '/api/tags/muscle': muscle,
    '/api/tags/muscled': muscle,
    ...routes,
  });
}

/** Navigates as the router would on a click or the back button, without waiting inside act for lazy routes. */
const go = async (navigate: () => Promise<void>) => {
  await act(async () => {
    void navigate();
  });
};

/** The grid's requests (the featured row, on the home page, asks separately). */
const gridRequests = (fetchMock: ReturnType<typeof mockFetch>) =>
  requestedUrls(fetchMock, '/api/videos').filter((url) => !url.searchParams.has('featured'));

describe('search', () => {
  it('searches from the header box and shows the results for the query', async () => {
    const fetchMock = setup({
      '/api/videos': (url) =>
        url.searchParams.get('q') ? makePage([makeVideo({ id: 4, title: 'Pool party in Palm Springs' })]) : makePage([]),
    });
    const user = userEvent.setup();
    const { router } = renderRoute('/');

    await user.type(await screen.findByRole('searchbox', { name: 'Search videos' }), '  pool party  {Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(router.state.location.search).toBe('?q=pool+party');
    expect(await screen.findByRole('heading', { level: 1, name: 'Results for “pool party”' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Pool party in Palm Springs' })).toHaveAttribute('href', '/video/4');
    const last = gridRequests(fetchMock).at(-1);
    expect(last?.searchParams.get('q')).toBe('pool party');
    expect(screen.getByRole('searchbox', { name: 'Search videos' })).toHaveValue('pool party');
    expect(document.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  });

  it('keeps the query in the sort tabs and the pagination', async () => {
    const fetchMock = setup({ '/api/videos': () => makePage([makeVideo()], { total: 60 }) });
    renderRoute('/search?q=gym&sort=most-viewed');

    expect(await screen.findByRole('link', { name: 'Top rated' })).toHaveAttribute('href', '/search?q=gym&sort=top-rated');
    expect(await screen.findByRole('link', { name: /next/i })).toHaveAttribute('href', '/search?q=gym&sort=most-viewed&page=2');
    const [request] = gridRequests(fetchMock);
    expect(request.searchParams.get('sort')).toBe('most-viewed');
  });

  it('does not search for nothing: an empty box stays on the page, an empty query asks for words', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();
    const { router } = renderRoute('/search?q=%20%20');

    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search videos' }), '   {Enter}');
    expect(router.state.location.search).toBe('?q=%20%20');
    expect(gridRequests(fetchMock)).toHaveLength(0);
  });

  it('says so when nothing matches', async () => {
    setup();
    renderRoute('/search?q=zzz');
    expect(await screen.findByText(/No videos match “zzz”/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'browse the categories' })).toHaveAttribute('href', '/categories');
  });

  it('limits the query to what the API accepts', async () => {
    setup();
    renderRoute('/');
    expect(await screen.findByRole('searchbox', { name: 'Search videos' })).toHaveAttribute('maxLength', '200');
  });

  it('sends a search made before the app has hydrated the page (or without it) to the results page', async () => {
    setup();
    renderRoute('/categories');
    const box = await screen.findByRole('searchbox', { name: 'Search videos' });
    expect(box).toHaveAttribute('name', 'q');
    expect(screen.getByRole('search')).toHaveAttribute('action', '/search');
    expect(screen.getByRole('search')).not.toHaveAttribute('method');
  });
});

describe('categories and performers', () => {
  it('lists the categories with their video counts, most videos first, leaving out empty ones', async () => {
    setup();
    renderRoute('/categories');

    const list = await screen.findByRole('list', { name: 'Categories' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Muscle12 videos', 'Outdoor3 videos']);
    expect(links[0]).toHaveAttribute('href', '/categories/muscle');
    expect(screen.queryByText('Empty One')).not.toBeInTheDocument();
  });

  it('filters the index as one types and orders it by name on request', async () => {
    setup();
    const user = userEvent.setup();
    renderRoute('/performers');

    const list = await screen.findByRole('list', { name: 'Performers' });
    expect(within(list).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/performers/ben-cole',
      '/performers/alex-ray',
    ]);
    await user.click(screen.getByRole('button', { name: 'A–Z' }));
    expect(within(screen.getByRole('list', { name: 'Performers' })).getAllByRole('link')[0]).toHaveAttribute('href', '/performers/alex-ray');

    await user.type(screen.getByRole('searchbox', { name: 'Filter performers' }), 'BEN');
    expect(within(screen.getByRole('list', { name: 'Performers' })).getAllByRole('link')).toHaveLength(1);
    await user.clear(screen.getByRole('searchbox', { name: 'Filter performers' }));
    await user.type(screen.getByRole('searchbox', { name: 'Filter performers' }), 'nobody');
    expect(screen.getByText('No performer matches “nobody”.')).toBeInTheDocument();
  });

  it("shows a category's videos under its name, asking the API for that category", async () => {
    const fetchMock = setup({ '/api/videos': () => makePage([makeVideo({ id: 8, title: 'Gym session' })]) });
    renderRoute('/categories/muscle?sort=longest');

    expect(await screen.findByRole('heading', { level: 1, name: 'Longest Muscle videos' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Gym session' })).toHaveAttribute('href', '/video/8');
    expect(screen.getByRole('link', { name: 'All categories' })).toHaveAttribute('href', '/categories');
    const [request] = gridRequests(fetchMock);
    expect(request.searchParams.get('category')).toBe('muscle');
    expect(request.searchParams.get('sort')).toBe('longest');
  });

  it("shows a performer's videos", async () => {
    const fetchMock = setup();
    renderRoute('/performers/alex-ray');

    expect(await screen.findByRole('heading', { level: 1, name: 'Newest videos with Alex Ray' })).toBeInTheDocument();
    expect(await screen.findByText('No videos with this performer yet.')).toBeInTheDocument();
    expect(gridRequests(fetchMock)[0].searchParams.get('performer')).toBe('alex-ray');
  });

  it('answers an unknown category with the not-found page', async () => {
    setup();
    renderRoute('/categories/no-such-thing');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('links both indexes from the header', async () => {
    setup();
    renderRoute('/');
    const nav = await screen.findByRole('navigation', { name: 'Browse' });
    expect(within(nav).getByRole('link', { name: 'Categories' })).toHaveAttribute('href', '/categories');
    expect(within(nav).getByRole('link', { name: 'Performers' })).toHaveAttribute('href', '/performers');
  });
});

describe('tags', () => {
  it('lists the tags by name with their video counts, leaving out those without videos', async () => {
    setup();
    const user = userEvent.setup();
    renderRoute('/tags');

    const list = await screen.findByRole('list', { name: 'Tags' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Beach1 video', 'Muscle12 videos', 'Poolside2 videos']);
    expect(links[1]).toHaveAttribute('href', '/tags/muscle');
    expect(screen.queryByText('Leather')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'A–Z' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(document.title).toBe('Tags'));

    await user.click(screen.getByRole('button', { name: 'Most videos' }));
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('link')[0]).toHaveAttribute('href', '/tags/muscle');
    await user.type(screen.getByRole('searchbox', { name: 'Filter tags' }), 'pool');
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/tags/poolside']);
  });

  it("shows a tag's videos under its name with every sort, asking the API for that tag", async () => {
    const fetchMock = setup({ '/api/videos': () => makePage([makeVideo({ id: 8, title: 'Gym session' })], { total: 30 }) });
    renderRoute('/tags/muscle?sort=longest&quality=hd');

    expect(await screen.findByRole('heading', { level: 1, name: 'Longest videos tagged Muscle' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Gym session' })).toHaveAttribute('href', '/video/8');
    expect(screen.getByRole('link', { name: 'All tags' })).toHaveAttribute('href', '/tags');
    expect(screen.getByRole('link', { name: 'Most viewed' })).toHaveAttribute('href', '/tags/muscle?quality=hd&sort=most-viewed');
    expect(screen.getByRole('link', { name: /next/i })).toHaveAttribute('href', '/tags/muscle?quality=hd&sort=longest&page=2');
    const [request] = gridRequests(fetchMock);
    expect(Object.fromEntries(request.searchParams)).toMatchObject({ tag: 'muscle', sort: 'longest', quality: 'hd' });
    await waitFor(() => expect(document.title).toBe('Muscle videos'));
  });

  it("moves a synonym's address to its tag's, keeping the sort, without reading the tag again", async () => {
    const fetchMock = setup({ '/api/videos': () => makePage([makeVideo({ id: 9, title: 'Flexing' })]) });
    const { router } = renderRoute('/tags/muscled?sort=top-rated');

    await waitFor(() => expect(router.state.location.pathname).toBe('/tags/muscle'));
    expect(router.state.location.search).toBe('?sort=top-rated');
    // Replaced, not pushed: Back does not come back to the synonym's address.
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByRole('heading', { level: 1, name: 'Top rated videos tagged Muscle' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Flexing' })).toBeInTheDocument();
    expect(requestedUrls(fetchMock, '/api/tags/muscle')).toHaveLength(0);
    // The grid shown is the tag's own (the tag and its first page are read at once: a synonym's first page may be asked too).
    expect(gridRequests(fetchMock).at(-1)?.searchParams.get('tag')).toBe('muscle');
  });

  it('answers an unknown tag with the not-found page', async () => {
    setup();
    renderRoute('/tags/no-such-tag');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('links the tag index from the header', async () => {
    setup();
    renderRoute('/');
    const nav = await screen.findByRole('navigation', { name: 'Browse' });
    expect(within(nav).getByRole('link', { name: 'Tags' })).toHaveAttribute('href', '/tags');
  });
});

describe('coming back to a listing', () => {
  it('focuses the card of the video last watched when the back button returns to a fetched page', async () => {
    setup({
      '/api/videos': () =>
        makePage([makeVideo({ id: 1, slug: 'first', title: 'First' }), makeVideo({ id: 2, slug: 'second', title: 'Second' })]),
    });
    const { router } = renderRoute('/search?q=first');
    await screen.findByRole('link', { name: 'Second' });
    // The watch page keeps the slug of the video being watched.
    window.sessionStorage.setItem('scroll_target', 'second');
    await go(() => router.navigate('/categories/muscle'));
    await screen.findByRole('heading', { level: 1, name: 'Newest Muscle videos' });
    // Arriving by a link (PUSH) leaves the focus alone…
    expect(screen.getByRole('link', { name: 'Second' })).not.toHaveFocus();
    expect(window.sessionStorage.getItem('scroll_target')).toBe('second');

    await go(() => router.navigate('/performers/alex-ray'));
    await screen.findByRole('heading', { level: 1, name: 'Newest videos with Alex Ray' });
    await go(() => router.navigate(-1));
    const second = await screen.findByRole('link', { name: 'Second' });
    await waitFor(() => expect(second).toHaveFocus());
    expect(window.sessionStorage.getItem('scroll_target')).toBeNull();
  });

  it.each([
    ['stays where the router put it when the card\u2019s link shows', 500, 740, false],
    ['stays where the router put it when most of the card\u2019s link shows', 600, 840, false],
    ['brings the card to the middle when most of its link is out of view', 700, 940, true],
    ['brings the card to the middle when it is above the window', -300, -60, true],
  ])('%s', async (_case, top, bottom, scrolls) => {
    setup({ '/api/videos': () => makePage([makeVideo({ id: 1, slug: 'first', title: 'First' }), makeVideo({ id: 2, slug: 'second', title: 'Second' })]) });
    const { router } = renderRoute('/search?q=first');
    await screen.findByRole('link', { name: 'Second' });
    window.sessionStorage.setItem('scroll_target', 'second');
    await go(() => router.navigate('/performers/alex-ray'));
    await screen.findByRole('heading', { level: 1, name: 'Newest videos with Alex Ray' });
    // The card's link (picture and title) at top..bottom of a 768 px window; the card itself reaches 40 px lower.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const extra = this.tagName === 'LI' ? 40 : 0;
      return { top, bottom: bottom + extra, left: 0, right: 300, width: 300, height: bottom - top + extra, x: 0, y: top, toJSON: () => ({}) };
    });
    // jsdom has no scrollIntoView: lend one for this test only.
    const scrollIntoView = vi.fn();
    HTMLElement.prototype.scrollIntoView = scrollIntoView;
    try {
      await go(() => router.navigate(-1));
      const second = await screen.findByRole('link', { name: 'Second' });
      await waitFor(() => expect(second).toHaveFocus());
      expect(scrollIntoView).toHaveBeenCalledTimes(scrolls ? 1 : 0);
      if (scrolls) expect(scrollIntoView).toHaveBeenCalledWith({ block: 'center' });
    } finally {
      delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView;
    }
  });

  it('does nothing when the video last watched is not on the page', async () => {
    setup({ '/api/videos': () => makePage([makeVideo({ id: 1, slug: 'first', title: 'First' })]) });
    window.sessionStorage.setItem('scroll_target', 'elsewhere');
    const { router } = renderRoute('/categories/muscle');
    await screen.findByRole('link', { name: 'First' });
    await go(() => router.navigate('/categories/outdoor'));
    await go(() => router.navigate(-1));
    await screen.findByRole('link', { name: 'First' });
    expect(document.activeElement?.tagName).not.toBe('A');
    expect(window.sessionStorage.getItem('scroll_target')).toBe('elsewhere');
  });
});

describe('listing filters', () => {
  it('asks the API for the filters in the address and shows each as a chip that removes it', async () => {
    const fetchMock = setup({ '/api/videos': () => makePage([makeVideo({ id: 3, title: 'Long scene' })], { total: 60 }) });
    renderRoute('/categories/muscle?minDuration=1200&quality=hd&sort=longest');

    expect(await screen.findByRole('link', { name: 'Long scene' })).toBeInTheDocument();
    const [request] = gridRequests(fetchMock);
    expect(Object.fromEntries(request.searchParams)).toMatchObject({ category: 'muscle', minDuration: '1200', quality: 'hd', sort: 'longest' });
    expect(request.searchParams.has('maxDuration')).toBe(false);

    const chips = screen.getByRole('list', { name: 'Applied filters' });
    expect(within(chips).getByRole('link', { name: 'Remove filter: Over 20 min' })).toHaveAttribute('href', '/categories/muscle?quality=hd&sort=longest');
    expect(within(chips).getByRole('link', { name: 'Remove filter: HD' })).toHaveAttribute('href', '/categories/muscle?minDuration=1200&sort=longest');
    expect(within(chips).getByRole('link', { name: 'Clear all' })).toHaveAttribute('href', '/categories/muscle?sort=longest');
    // The sort tabs and the pages keep the filters.
    expect(screen.getByRole('link', { name: 'Most viewed' })).toHaveAttribute('href', '/categories/muscle?minDuration=1200&quality=hd&sort=most-viewed');
    expect(screen.getByRole('link', { name: /next/i })).toHaveAttribute('href', '/categories/muscle?minDuration=1200&quality=hd&sort=longest&page=2');
    expect(document.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  });

  it('offers every choice as a link that sets it from page 1, or removes it when applied, keeping the search and sort', async () => {
    setup();
    renderRoute('/search?q=gym&sort=top-rated&page=3&uploaded=week');

    const choices = await screen.findByRole('navigation', { name: 'Filter videos' });
    const link = (group: string, name: string) => within(within(choices).getByRole('group', { name: group })).getByRole('link', { name });
    expect(link('Length', 'Under 10 min')).toHaveAttribute('href', '/search?q=gym&maxDuration=599&uploaded=week&sort=top-rated');
    expect(link('Length', '10–20 min')).toHaveAttribute('href', '/search?q=gym&minDuration=600&maxDuration=1199&uploaded=week&sort=top-rated');
    expect(link('Quality', '4K')).toHaveAttribute('href', '/search?q=gym&quality=4k&uploaded=week&sort=top-rated');
    expect(link('Uploaded', 'This week')).toHaveAttribute('aria-current', 'true');
    expect(link('Uploaded', 'This week')).toHaveAttribute('href', '/search?q=gym&sort=top-rated');
    expect(link('Uploaded', 'Today')).toHaveAttribute('href', '/search?q=gym&uploaded=today&sort=top-rated');
    expect(link('Uploaded', 'Today')).not.toHaveAttribute('aria-current');
  });

  it('applies a filter on a click, and says so with a way out when nothing matches', async () => {
    const fetchMock = setup({
      '/api/videos': (url) => (url.searchParams.get('quality') === '4k' ? makePage([]) : makePage([makeVideo({ id: 5, title: 'Any scene' })])),
    });
    const user = userEvent.setup();
    const { router } = renderRoute('/performers/ben-cole');

    expect(await screen.findByRole('link', { name: 'Any scene' })).toBeInTheDocument();
    await user.click(screen.getByText('Filters'));
    await user.click(within(screen.getByRole('group', { name: 'Quality' })).getByRole('link', { name: '4K' }));

    await waitFor(() => expect(router.state.location.search).toBe('?quality=4k'));
    expect(await screen.findByText(/No videos match these filters/)).toBeInTheDocument();
    expect(gridRequests(fetchMock).at(-1)?.searchParams.get('quality')).toBe('4k');
    await user.click(screen.getByRole('link', { name: 'Clear the filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('link', { name: 'Any scene' })).toBeInTheDocument();
  });

  it('names a range typed by hand on its chip, and ignores values the API would refuse', async () => {
    const fetchMock = setup();
    renderRoute('/?minDuration=90&maxDuration=300&quality=8k&uploaded=decade');

    expect(await screen.findByRole('link', { name: 'Remove filter: 1:30–5 min' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(gridRequests(fetchMock).length).toBeGreaterThan(0));
    const [request] = gridRequests(fetchMock);
    expect(request.searchParams.get('minDuration')).toBe('90');
    expect(request.searchParams.has('quality')).toBe(false);
    expect(request.searchParams.has('uploaded')).toBe(false);
  });
});
