import { editPrecondition } from '@hunktube/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '@/features/admin/components/video-table-filters';
import type { Video } from '@/lib/api/types';
import { makePage, makeSite, makeUser, makeVideo, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls, sentBodies, sentHeaders } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin', display_name: 'Boss' });

const gym = { id: 'gym', name: 'Gym' };
const pool = { id: 'pool', name: 'Pool' };
const alex = { id: 'alex', name: 'Alex' };
const muscle = { id: 'muscle', name: 'Muscle' };

/** Three videos as GET /api/videos/{id} answers them. */
function catalogue(): Video[] {
  return [
    makeWatchVideo({ id: 1, title: 'Pool party', views: 1234, likes: 56, featured: 0, duration: 754, categories: [pool], performers: [alex] }),
    makeWatchVideo({ id: 2, title: 'Gym buddies', views: 10, likes: 2, featured: 3, duration: 3725, categories: [gym], performers: [], tags: [muscle] }),
    makeWatchVideo({ id: 3, title: 'Beach day', views: 0, likes: 0, featured: 0, duration: null, upload_date: '2025-01-15T08:00:00.000Z' }),
  ];
}

const cardOf = ({ categories: _c, performers: _p, stream_path: _s, poster: _po, storyboard: _st, ...card }: Video) =>
  makeVideo(card);

/** The API as the admin's video table meets it; each test overrides what it is about. */
function setup({ videos = catalogue(), routes = {} }: { videos?: Video[]; routes?: Routes } = {}) {
  const byId: Routes = {};
  for (const video of videos) byId[`/api/videos/${video.id}`] = () => video;
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => ({ user: admin }),
    '/api/videos': () => makePage(videos.map(cardOf), { limit: 50, total: videos.length }),
    '/api/categories': () => ({ data: [{ ...gym, video_count: 1 }, { ...pool, video_count: 1 }] }),
    '/api/performers': () => ({ data: [{ ...alex, video_count: 1 }] }),
    '/api/tags': () => ({ data: [{ ...muscle, video_count: 1 }, { id: 'beach', name: 'Beach', video_count: 0 }] }),
    '/api/admin/update-video': (_url, init) => ({ data: JSON.parse(String(init?.body)), error: null }),
    '/api/admin/delete-video': () => ({ error: null }),
    ...byId,
    ...routes,
  });
}

const table = () => screen.findByRole('table');
const rowOf = (title: string) => {
  const link = screen.getByRole('link', { name: title });
  const row = link.closest('tr');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
};
const checkboxOf = (title: string) => screen.getByRole('checkbox', { name: `Select ${title}` });
const bulkBar = () => screen.getByRole('region', { name: /selected$/ });
const notices = () => screen.getByRole('status', { name: 'Notifications' });

async function select(...titles: string[]) {
  const user = userEvent.setup();
  await table();
  for (const title of titles) await user.click(checkboxOf(title));
  return user;
}

describe('admin video table: what it lists', () => {
  it('shows the rows of the page that the URL names, asking for its search, sort and page', async () => {
    const fetchMock = setup();

    renderRoute('/admin/videos?q=party&sort=most-viewed&page=2');

    await table();
    const url = requestedUrls(fetchMock, '/api/videos').at(-1);
    expect(url?.searchParams.get('q')).toBe('party');
    expect(url?.searchParams.get('sort')).toBe('most-viewed');
    expect(url?.searchParams.get('page')).toBe('2');
    expect(url?.searchParams.get('limit')).toBe('50');

    expect(screen.getByRole('link', { name: 'Pool party' })).toHaveAttribute('href', '/admin/videos/1');
    expect(screen.getByRole('link', { name: 'View Pool party' })).toHaveAttribute('href', '/video/1');
    const first = within(rowOf('Pool party'));
    expect(first.getByText('1,234')).toBeInTheDocument();
    expect(first.getByText('56')).toBeInTheDocument();
    expect(first.getByText('12:34')).toBeInTheDocument();
    expect(first.getByText('Jun 1, 2024')).toBeInTheDocument();
    const second = within(rowOf('Gym buddies'));
    expect(second.getByText('3')).toBeInTheDocument();
    expect(second.getByText('1:02:05')).toBeInTheDocument();
    expect(within(rowOf('Beach day')).getByText('--:--')).toBeInTheDocument();
    expect(within(rowOf('Beach day')).getByText('Jan 15, 2025')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('most-viewed');
    expect(screen.getByRole('searchbox', { name: 'Search titles' })).toHaveValue('party');
  });

  it('puts a search in the URL once typing pauses, back on page 1, and asks the API for it', async () => {
    // The pause is stepped through on a fake clock, not waited for.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const fetchMock = setup();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

    const { router } = renderRoute('/admin/videos?page=3&sort=longest');
    await table();
    await user.type(screen.getByRole('searchbox', { name: 'Search titles' }), 'gym buddies');
    expect(router.state.location.search).toBe('?page=3&sort=longest');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS));

    await waitFor(() => expect(router.state.location.search).toBe('?q=gym+buddies&sort=longest'));
    await waitFor(() =>
      expect(requestedUrls(fetchMock, '/api/videos').some((url) => url.searchParams.get('q') === 'gym buddies')).toBe(true),
    );
    // Typing is not sent letter by letter.
    expect(requestedUrls(fetchMock, '/api/videos').some((url) => url.searchParams.get('q') === 'g')).toBe(false);
  });

  it('changes the order through the URL', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();

    const { router } = renderRoute('/admin/videos?page=2');
    await table();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'top-rated');

    expect(router.state.location.search).toBe('?sort=top-rated');
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/videos').at(-1)?.searchParams.get('sort')).toBe('top-rated'));
  });

  it('pages through the results with links that keep the search', async () => {
    setup({ routes: { '/api/videos': () => makePage(catalogue().map(cardOf), { limit: 50, total: 120 }) } });

    renderRoute('/admin/videos?q=day');
    await table();

    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next →' })).toHaveAttribute('href', '/admin/videos?q=day&page=2');
  });
});

describe('admin video table: selection', () => {
  it('shows the bulk actions with the number selected, and selects the whole page at once', async () => {
    setup();

    renderRoute('/admin/videos');
    await table();
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument();

    const user = await select('Pool party', 'Beach day');
    expect(within(bulkBar()).getByRole('heading', { name: '2 selected' })).toBeInTheDocument();
    const all = screen.getByRole('checkbox', { name: 'Select all on this page' });
    expect(all).not.toBeChecked();
    expect(all).toHaveProperty('indeterminate', true);

    await user.click(all);
    expect(screen.getByRole('heading', { name: '3 selected' })).toBeInTheDocument();
    expect(checkboxOf('Gym buddies')).toBeChecked();

    await user.click(all);
    expect(screen.queryByRole('region', { name: /selected$/ })).not.toBeInTheDocument();
    expect(checkboxOf('Pool party')).not.toBeChecked();
  });

  it('selects a range with a shift-click', async () => {
    setup();
    renderRoute('/admin/videos');
    const user = await select('Pool party');

    await user.keyboard('{Shift>}');
    await user.click(checkboxOf('Beach day'));
    await user.keyboard('{/Shift}');

    expect(checkboxOf('Gym buddies')).toBeChecked();
    expect(screen.getByRole('heading', { name: '3 selected' })).toBeInTheDocument();
  });

  it('clears the selection', async () => {
    setup();
    renderRoute('/admin/videos');
    const user = await select('Pool party');

    await user.click(within(bulkBar()).getByRole('button', { name: 'Clear selection' }));

    expect(checkboxOf('Pool party')).not.toBeChecked();
    expect(screen.queryByRole('region', { name: /selected$/ })).not.toBeInTheDocument();
  });
});

describe('admin video table: bulk edits', () => {
  it('sets featured on every selected video, sending each whole video with only featured changed', async () => {
    const videos = catalogue();
    const fetchMock = setup({ videos });
    renderRoute('/admin/videos');
    const user = await select('Pool party', 'Beach day');
    const listReads = requestedUrls(fetchMock, '/api/videos').length;

    const featured = within(bulkBar()).getByRole('spinbutton', { name: 'Featured' });
    await user.clear(featured);
    await user.type(featured, '5');
    await user.click(within(bulkBar()).getByRole('button', { name: 'Set featured' }));

    expect(await within(notices()).findByText('Updated 2 videos')).toBeInTheDocument();
    const bodies = sentBodies(fetchMock, '/api/admin/update-video') as Video[];
    expect(bodies.sort((a, b) => a.id - b.id)).toEqual([
      { ...videos[0], featured: 5 },
      { ...videos[2], featured: 5 },
    ]);
    expect(requestedUrls(fetchMock, '/api/videos/2')).toHaveLength(0);
    // Everything went through: nothing stays selected, and the table is read again.
    expect(screen.queryByRole('region', { name: /selected$/ })).not.toBeInTheDocument();
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/videos').length).toBeGreaterThan(listReads));
  });

  it('unfeatures the selected videos', async () => {
    const videos = catalogue();
    const fetchMock = setup({ videos });
    renderRoute('/admin/videos');
    const user = await select('Gym buddies');

    await user.click(within(bulkBar()).getByRole('button', { name: 'Unfeature' }));

    expect(await within(notices()).findByText('Updated 1 video')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([{ ...videos[1], featured: 0 }]);
    // Written from the version just read, so that another admin's save in between is a 409, not overwritten.
    expect(sentHeaders(fetchMock, '/api/admin/update-video', 'If-Match')).toEqual([editPrecondition(videos[1])]);
  });

  it('adds a category to the selected videos, writing only those that lack it', async () => {
    const videos = catalogue();
    const fetchMock = setup({ videos });
    renderRoute('/admin/videos');
    const user = await select('Pool party', 'Gym buddies');

    const bar = within(bulkBar());
    await user.selectOptions(await bar.findByRole('combobox', { name: 'Category' }), 'Gym');
    await user.click(bar.getByRole('button', { name: 'Add category' }));

    expect(await within(notices()).findByText('Updated 2 videos')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([{ ...videos[0], categories: [pool, gym] }]);
  });

  it('removes a performer from the selected videos', async () => {
    const videos = catalogue();
    const fetchMock = setup({ videos });
    renderRoute('/admin/videos');
    const user = await select('Pool party', 'Beach day');

    const bar = within(bulkBar());
    await user.selectOptions(await bar.findByRole('combobox', { name: 'Performer' }), 'Alex');
    await user.click(bar.getByRole('button', { name: 'Remove performer' }));

    expect(await within(notices()).findByText('Updated 2 videos')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([{ ...videos[0], performers: [] }]);
  });

  it('removes a category from the selected videos', async () => {
    const videos = catalogue();
    videos[2] = { ...videos[2], categories: [gym, pool] };
    const fetchMock = setup({ videos });
    renderRoute('/admin/videos');
    const user = await select('Gym buddies', 'Beach day');

    const bar = within(bulkBar());
    await user.selectOptions(await bar.findByRole('combobox', { name: 'Category' }), 'Gym');
    await user.click(bar.getByRole('button', { name: 'Remove category' }));

    expect(await within(notices()).findByText('Updated 2 videos')).toBeInTheDocument();
    const bodies = (sentBodies(fetchMock, '/api/admin/update-video') as Video[]).sort((a, b) => a.id - b.id);
    expect(bodies).toEqual([
      { ...videos[1], categories: [] },
      { ...videos[2], categories: [pool] },
    ]);
  });

  it('adds a tag typed by name to the selected videos, suggesting the site’s tags, writing only those without it', async () => {
    const videos = catalogue();
    const fetchMock = setup({ videos });
    renderRoute('/admin/videos');
    const user = await select('Pool party', 'Gym buddies');

    const bar = within(bulkBar());
    const box = bar.getByRole('combobox', { name: 'Tag to add' });
    await waitFor(() => expect([...document.querySelectorAll(`#${CSS.escape(box.getAttribute('list') ?? '')} option`)].map((o) => (o as HTMLOptionElement).value)).toEqual(['Muscle', 'Beach']));
    expect(bar.getByRole('button', { name: 'Add tag' })).toBeDisabled();
    // "muscle!" is the tag Muscle by the slug rule: Gym buddies has it already.
    await user.type(box, 'muscle!');
    await user.click(bar.getByRole('button', { name: 'Add tag' }));

    expect(await within(notices()).findByText('Updated 2 videos')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([{ ...videos[0], tags: [muscle] }]);
  });

  it('adds a new tag by its name (the API creates it), and names a video the API refused it for', async () => {
    const videos = catalogue();
    const fetchMock = setup({
      videos,
      routes: {
        '/api/admin/update-video': (_url, init) => {
          const body = JSON.parse(String(init?.body)) as Video;
          return body.id === 3 ? json({ error: 'a video has at most 30 tags', statusCode: 400 }, 400) : { data: body, error: null };
        },
      },
    });
    renderRoute('/admin/videos');
    const user = await select('Pool party', 'Beach day');

    const bar = within(bulkBar());
    await user.type(bar.getByRole('combobox', { name: 'Tag to add' }), '  Sunset Glow {Enter}');

    expect(await within(notices()).findByText('Updated 1 video. Could not update 1 of 2 videos: Beach day (a video has at most 30 tags).')).toBeInTheDocument();
    const bodies = (sentBodies(fetchMock, '/api/admin/update-video') as Video[]).sort((a, b) => a.id - b.id);
    expect(bodies.map((body) => body.tags)).toEqual([[{ id: 'sunset-glow', name: 'Sunset Glow' }], [{ id: 'sunset-glow', name: 'Sunset Glow' }]]);
  });

  it('refuses a tag name without a letter or digit before sending anything', async () => {
    const fetchMock = setup();
    renderRoute('/admin/videos');
    const user = await select('Pool party');

    const bar = within(bulkBar());
    await user.type(bar.getByRole('combobox', { name: 'Tag to add' }), '!!!{Enter}');
    expect(bar.getByRole('alert')).toHaveTextContent('A tag needs a letter or a digit (a–z, 0–9).');
    expect(bar.getByRole('combobox', { name: 'Tag to add' })).toHaveAttribute('aria-invalid', 'true');
    expect(sentBodies(fetchMock, '/api/admin/update-video')).toHaveLength(0);
    expect(requestedUrls(fetchMock, '/api/videos/1')).toHaveLength(0);
  });

  it('removes a tag picked from the site’s tags from the selected videos', async () => {
    const videos = catalogue();
    const fetchMock = setup({ videos });
    renderRoute('/admin/videos');
    const user = await select('Pool party', 'Gym buddies');

    const bar = within(bulkBar());
    expect(bar.getByRole('button', { name: 'Remove tag' })).toBeDisabled();
    await user.selectOptions(await bar.findByRole('combobox', { name: 'Tag to remove' }), 'Muscle');
    await user.click(bar.getByRole('button', { name: 'Remove tag' }));

    expect(await within(notices()).findByText('Updated 2 videos')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([{ ...videos[1], tags: [] }]);
  });

  it('names the videos that failed, keeps only them selected, and reports the others as updated', async () => {
    const videos = catalogue();
    const fetchMock = setup({
      videos,
      routes: {
        '/api/admin/update-video': (_url, init) => {
          const body = JSON.parse(String(init?.body)) as Video;
          return body.id === 2
            ? json({ error: 'Slug is already taken', statusCode: 409 }, 409)
            : { data: body, error: null };
        },
        '/api/videos/3': () => json({ error: 'Video not found', statusCode: 404 }, 404),
      },
    });
    renderRoute('/admin/videos');
    const user = await select('Pool party', 'Gym buddies', 'Beach day');

    await user.click(within(bulkBar()).getByRole('button', { name: 'Set featured' }));

    expect(
      await within(notices()).findByText(
        'Updated 1 video. Could not update 2 of 3 videos: Gym buddies (Slug is already taken), Beach day (Video not found).',
      ),
    ).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/update-video')).toHaveLength(2);
    expect(screen.getByRole('heading', { name: '2 selected' })).toBeInTheDocument();
    expect(checkboxOf('Pool party')).not.toBeChecked();
    expect(checkboxOf('Gym buddies')).toBeChecked();
    expect(checkboxOf('Beach day')).toBeChecked();
  });

  it('works on at most four videos at a time', async () => {
    const videos = Array.from({ length: 9 }, (_, i) => makeWatchVideo({ id: i + 1, title: `Clip ${i + 1}` }));
    let running = 0;
    let most = 0;
    const fetchMock = setup({
      videos,
      routes: {
        '/api/admin/update-video': async (_url, init) => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
          return { data: JSON.parse(String(init?.body)), error: null };
        },
      },
    });
    renderRoute('/admin/videos');
    const user = userEvent.setup();
    await table();

    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(within(bulkBar()).getByRole('button', { name: 'Set featured' }));

    expect(await within(notices()).findByText('Updated 9 videos')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/update-video')).toHaveLength(9);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
  });
});

describe('admin video table: bulk delete', () => {
  it('asks once for all the videos; Cancel sends nothing, Delete removes each one', async () => {
    const fetchMock = setup();
    renderRoute('/admin/videos');
    const user = await select('Pool party', 'Beach day');

    await user.click(within(bulkBar()).getByRole('button', { name: 'Delete' }));
    let dialog = within(screen.getByRole('dialog', { name: 'Confirm Deletion' }));
    expect(dialog.getByText('Are you sure you want to delete these 2 videos?')).toBeInTheDocument();
    expect(dialog.getByText('Pool party')).toBeInTheDocument();
    expect(dialog.getByText('Beach day')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/delete-video')).toHaveLength(0);
    expect(screen.getByRole('heading', { name: '2 selected' })).toBeInTheDocument();

    await user.click(within(bulkBar()).getByRole('button', { name: 'Delete' }));
    dialog = within(screen.getByRole('dialog', { name: 'Confirm Deletion' }));
    await user.click(dialog.getByRole('button', { name: 'Delete' }));

    expect(await within(notices()).findByText('Deleted 2 videos')).toBeInTheDocument();
    expect(screen.queryAllByRole('dialog')).toHaveLength(0);
    const ids = (sentBodies(fetchMock, '/api/admin/delete-video') as { id: number }[]).map((body) => body.id).sort();
    expect(ids).toEqual([1, 3]);
    expect(screen.queryByRole('region', { name: /selected$/ })).not.toBeInTheDocument();
  });

  it('asks about "this video" for one, and names a video that could not be deleted', async () => {
    const fetchMock = setup({
      routes: { '/api/admin/delete-video': () => json({ error: 'Video not found', statusCode: 404 }, 404) },
    });
    renderRoute('/admin/videos');
    const user = await select('Gym buddies');

    await user.click(within(bulkBar()).getByRole('button', { name: 'Delete' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Confirm Deletion' }));
    expect(dialog.getByText('Are you sure you want to delete this video?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));

    expect(
      await within(notices()).findByText('Could not delete 1 of 1 video: Gym buddies (Video not found).'),
    ).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/delete-video')).toHaveLength(1);
    expect(checkboxOf('Gym buddies')).toBeChecked();
  });
});
