import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makePage, makeSite, makeVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

const NOW = new Date('2026-11-21T12:00:00Z');

function cardFor(title: string): HTMLElement {
  const article = screen.getByRole('heading', { name: title }).closest('article');
  if (!article) throw new Error(`no card for ${title}`);
  return article;
}

type Routes = Parameters<typeof mockFetch>[0];

/**
 * mockFetch for the home page: `/api/videos` answers the grid's requests with the test's handler and the featured
 * row's (`featured=true`) with `featured`, none by default, so each test sees only the grid it is about.
 */
function mockHome(routes: Routes, featured: ReturnType<typeof makeVideo>[] = []) {
  const grid = routes['/api/videos'];
  return mockFetch({
    ...routes,
    '/api/videos': (url, init) => (url.searchParams.get('featured') === 'true' ? makePage(featured) : grid(url, init)),
  });
}

/** The grid's requests, without the featured row's. */
const gridRequests = (fetchMock: ReturnType<typeof mockFetch>) =>
  requestedUrls(fetchMock, '/api/videos').filter((url) => !url.searchParams.has('featured'));

describe('home: the catalogue grid', () => {
  beforeEach(() => {
    // Only Date is faked, so the upload age is predictable while timers keep running for the queries.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the site name and one card per video, linking to its watch page', async () => {
    mockHome({
      '/api/site': () => makeSite({ name: 'Hunk Tube' }),
      '/api/videos': () =>
        makePage([
          makeVideo({
            id: 7,
            title: 'Pool party',
            duration: 754,
            views: 1234,
            upload_date: '2026-11-18T12:00:00Z',
            thumbnail: '/thumbs/2024/06/pool-party/poster.jpg',
          }),
          makeVideo({ id: 8, title: 'Beach day', duration: null, views: 1 }),
        ]),
    });

    renderRoute('/');

    expect(await screen.findByRole('link', { name: 'Hunk Tube' })).toHaveAttribute('href', '/');
    const pool = cardFor('Pool party');
    const link = within(pool).getByRole('link', { name: 'Pool party' });
    expect(link).toHaveAttribute('href', '/video/7');
    // The link is named by its visible title; the rest reaches screen readers as its description.
    expect(link).toHaveAccessibleDescription('Duration 12:34. 1.2K views, 3 days ago');
    // Decorative inside the named link: no second reading of the title.
    expect(pool.querySelector('img')).toHaveAttribute('alt', '');
    expect(pool.querySelector('img')).toHaveAttribute('src', 'https://img.example.com/thumbs/2024/06/pool-party/poster.jpg');
    expect(within(pool).getByText('12:34')).toBeInTheDocument();
    expect(within(pool).getByText('1.2K views')).toBeInTheDocument();
    expect(within(pool).getByText('3 days ago')).toBeInTheDocument();

    const beach = cardFor('Beach day');
    expect(within(beach).getByText('--:--')).toBeInTheDocument();
    expect(within(beach).getByText('1 view')).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });

  it("shows the brand's title, falling back to the main title when the brand's is empty", async () => {
    mockHome({
      '/api/site': () => makeSite({ brand: 'atg' }),
      '/api/videos': () =>
        makePage([
          makeVideo({ title: 'Main one', atg_title: 'ATG one', jtg_title: 'JTG one' }),
          makeVideo({ title: 'Main two', atg_title: '', jtg_title: 'JTG two' }),
          makeVideo({ title: 'Main three', atg_title: '   ' }),
        ]),
    });

    renderRoute('/');

    expect(await screen.findByRole('heading', { name: 'ATG one' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Main two' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Main three' })).toBeInTheDocument();
    expect(screen.queryByText('Main one')).not.toBeInTheDocument();
    expect(screen.queryByText(/JTG/)).not.toBeInTheDocument();
  });

  it('shows a placeholder, never a broken image, when a video has no thumbnail or it fails to load', async () => {
    mockHome({
      '/api/site': () => makeSite(),
      '/api/videos': () =>
        makePage([
          makeVideo({ title: 'No poster yet', thumbnail: '' }),
          makeVideo({ title: 'Poster gone', thumbnail: '/thumbs/gone/poster.jpg' }),
        ]),
    });

    renderRoute('/');

    await screen.findByRole('heading', { name: 'No poster yet' });
    const empty = cardFor('No poster yet');
    expect(empty.querySelector('img')).toBeNull();
    expect(empty.querySelector('.thumbnail__placeholder')).toBeInTheDocument();

    // The WebP copies fail, then the original too.
    const gone = cardFor('Poster gone');
    fireEvent.error(gone.querySelector('img') as HTMLImageElement);
    expect(gone.querySelector('picture')).toBeNull();
    expect(gone.querySelector('img')).toHaveAttribute('src', 'https://img.example.com/thumbs/gone/poster.jpg');
    fireEvent.error(gone.querySelector('img') as HTMLImageElement);
    expect(gone.querySelector('img')).toBeNull();
    expect(gone.querySelector('.thumbnail__placeholder')).toBeInTheDocument();
  });

  it('asks for the sort and page in the address and links to the neighbouring pages', async () => {
    const fetchMock = mockHome({
      '/api/site': () => makeSite(),
      '/api/videos': () => makePage([makeVideo()], { page: 2, limit: 24, total: 60 }),
    });

    renderRoute('/?sort=most-viewed&page=2');

    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    const [request] = gridRequests(fetchMock);
    expect(request.searchParams.get('sort')).toBe('most-viewed');
    expect(request.searchParams.get('page')).toBe('2');
    expect(request.searchParams.get('limit')).toBe('24');
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ credentials: 'include' });

    expect(screen.getByRole('heading', { level: 1, name: 'Most viewed videos' })).toBeInTheDocument();
    const tabs = within(screen.getByRole('navigation', { name: 'Sort videos' }));
    expect(tabs.getByRole('link', { name: 'Most viewed' })).toHaveAttribute('aria-current', 'page');
    expect(tabs.getByRole('link', { name: 'Newest' })).not.toHaveAttribute('aria-current');

    const pager = within(screen.getByRole('navigation', { name: 'Pagination' }));
    expect(pager.getByRole('link', { name: /previous/i })).toHaveAttribute('href', '/?sort=most-viewed');
    expect(pager.getByRole('link', { name: /next/i })).toHaveAttribute('href', '/?sort=most-viewed&page=3');
  });

  it('offers no next page on the last page', async () => {
    mockHome({
      '/api/site': () => makeSite(),
      '/api/videos': () => makePage([makeVideo()], { page: 3, limit: 24, total: 60 }),
    });

    renderRoute('/?page=3');

    const pager = within(await screen.findByRole('navigation', { name: 'Pagination' }));
    expect(pager.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(pager.queryByRole('link', { name: /next/i })).not.toBeInTheDocument();
    expect(pager.getByRole('link', { name: /previous/i })).toHaveAttribute('href', '/?page=2');
  });

  it('shows no pagination when one page holds everything', async () => {
    mockHome({
      '/api/site': () => makeSite(),
      '/api/videos': () => makePage([makeVideo({ title: 'Only one' })]),
    });

    renderRoute('/');

    expect(await screen.findByRole('heading', { name: 'Only one' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('loads another ordering from the first page when a sort tab is chosen', async () => {
    const fetchMock = mockHome({
      '/api/site': () => makeSite(),
      '/api/videos': (url) =>
        makePage([makeVideo({ title: `Sorted by ${url.searchParams.get('sort')}` })], { total: 100 }),
    });
    const user = userEvent.setup();

    const { router } = renderRoute('/?page=3');
    await screen.findByRole('heading', { name: 'Sorted by newest' });

    await user.click(screen.getByRole('link', { name: 'Top rated' }));

    expect(await screen.findByRole('heading', { name: 'Sorted by top-rated' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?sort=top-rated');
    const last = gridRequests(fetchMock).at(-1);
    expect(last?.searchParams.get('page')).toBe('1');
  });

  it('treats an unknown sort or a bad page as the defaults', async () => {
    const fetchMock = mockHome({
      '/api/site': () => makeSite(),
      '/api/videos': () => makePage([makeVideo()]),
    });

    renderRoute('/?sort=random&page=-4');

    expect(await screen.findByRole('heading', { level: 1, name: 'Newest videos' })).toBeInTheDocument();
    await waitFor(() => expect(gridRequests(fetchMock)).toHaveLength(1));
    const [request] = gridRequests(fetchMock);
    expect(request.searchParams.get('sort')).toBe('newest');
    expect(request.searchParams.get('page')).toBe('1');
  });

  it('says so when the catalogue is empty', async () => {
    mockHome({
      '/api/site': () => makeSite(),
      '/api/videos': () => makePage([]),
    });

    renderRoute('/');

    expect(await screen.findByText('No videos yet.')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('offers to try again when the videos cannot be loaded', async () => {
    let failing = true;
    mockHome({
      '/api/site': () => makeSite(),
      '/api/videos': () =>
        failing
          ? json({ error: 'Database unavailable', statusCode: 503 }, 503)
          : makePage([makeVideo({ title: 'Back again' })]),
    });
    const user = userEvent.setup();

    renderRoute('/');

    expect(await screen.findByRole('alert')).toHaveTextContent('The videos could not be loaded.');
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Back again' })).toBeInTheDocument();
  });

  it('still shows the catalogue, with main titles, when the site settings cannot be loaded', async () => {
    mockHome({
      '/api/site': () => json({ error: 'boom', statusCode: 500 }, 500),
      '/api/videos': () => makePage([makeVideo({ title: 'Main title', atg_title: 'ATG title' })]),
    });

    renderRoute('/');

    expect(await screen.findByRole('heading', { name: 'Main title' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  });

  it('shows the featured videos in a row of their own above the grid, on the first page only', async () => {
    const fetchMock = mockHome(
      { '/api/site': () => makeSite(), '/api/videos': () => makePage([makeVideo({ id: 2, title: 'In the grid' })], { total: 50 }) },
      [makeVideo({ id: 9, title: 'Admin pick', featured: 1 })],
    );

    const { router } = renderRoute('/');

    const row = await screen.findByRole('region', { name: 'Featured' });
    expect(within(row).getByRole('link', { name: 'Admin pick' })).toHaveAttribute('href', '/video/9');
    expect(within(row).getByRole('link', { name: 'Admin pick' })).toHaveAccessibleDescription(/^Featured\. Duration /);
    expect(within(row).queryByRole('link', { name: 'In the grid' })).not.toBeInTheDocument();
    const [featured] = requestedUrls(fetchMock, '/api/videos').filter((url) => url.searchParams.has('featured'));
    expect(featured.searchParams.get('featured')).toBe('true');

    await act(() => router.navigate('/?page=2'));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Featured' })).not.toBeInTheDocument());
    // A filtered listing shows only what it asked for.
    await act(() => router.navigate('/?quality=hd'));
    await waitFor(() => expect(gridRequests(fetchMock).at(-1)?.searchParams.get('quality')).toBe('hd'));
    expect(screen.queryByRole('region', { name: 'Featured' })).not.toBeInTheDocument();
  });

  it('shows no featured row when no video is featured', async () => {
    mockHome({ '/api/site': () => makeSite(), '/api/videos': () => makePage([makeVideo({ title: 'Plain' })]) });

    renderRoute('/');

    await screen.findByRole('heading', { name: 'Plain' });
    expect(screen.queryByRole('region', { name: 'Featured' })).not.toBeInTheDocument();
  });
});

describe('other routes', () => {
  beforeEach(() => {
    mockFetch({ '/api/site': () => makeSite({ name: 'Hunk Tube' }) });
  });

  it.each(['/no/such/page', '/video/abc', '/video/0'])('answers %s with the not-found page', async (url) => {
    renderRoute(url);

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the videos' })).toHaveAttribute('href', '/');
  });
});
