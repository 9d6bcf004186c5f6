import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adSlotsQuery } from '@/features/ads/api/get-ads';
import { useHls, type UseHlsOptions } from '@/features/watch/hooks/use-hls';
import type { RelatedVideos, User, Video } from '@/lib/api/types';
import { makePlaylist, makeSite, makeUser, makeVideo, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, noContent, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { trackServerHead } from '@/lib/server-head';
import { renderRoute } from '@/testing/render-route';

// hls.js needs Media Source Extensions, which jsdom lacks: the page is tested with its hook stubbed, and the
// hook itself in use-hls.test.ts.
vi.mock('@/features/watch/hooks/use-hls', () => ({
  useHls: vi.fn(() => ({ levels: [], level: -1, setLevel: () => {} })),
}));

const NOW = new Date('2026-11-21T12:00:00Z');
const SIGNED = '/s/token,1900000000/videos/2024/06/pool-party/index.m3u8';

type Routes = Parameters<typeof mockFetch>[0];

interface Setup {
  video?: Video;
  user?: User | null;
  related?: RelatedVideos;
  routes?: Routes;
}

/** The API as the watch page of video 7 meets it; each test overrides what it is about. */
function setup({ video = makeWatchVideo({ id: 7 }), user = null, related, routes = {} }: Setup = {}) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => (user ? { user } : json({ error: 'Unauthorized', statusCode: 401 }, 401)),
    [`/api/videos/${video.id}`]: () => video,
    [`/api/videos/${video.id}/related`]: () =>
      related ?? { related: true, data: [makeVideo({ id: 21, title: 'Related one' })] },
    '/api/video/secure': () => ({ secureUrl: SIGNED, expiresAt: '2030-03-17T17:46:40.000Z' }),
    '/api/video/add-trending': noContent,
    '/api/video/increment-views': () => ({ views: video.views + 1 }),
    '/api/video/add-history': noContent,
    '/api/video/get-bookmarks': () => ({ bookmarks: [], error: null }),
    '/api/video/add-to-watch-later': (_url, init) => ({
      queued: JSON.parse(String(init?.body)).action === 'create',
      error: null,
    }),
    '/api/playlists/get-user-playlists': () => ({ data: [], error: null }),
    ...routes,
  });
}

/** The page has loaded once its title is there. */
const findTitle = (name = 'Video 7') => screen.findByRole('heading', { level: 1, name });

/**
 * The player is ready for a viewer's play or pause once the page has its answer to whether a pre-roll may run: while
 * that question is out, a play is held for the ad and its pause is not a position (video-player.tsx › onPause).
 */
async function adsAnswered({ queryClient }: ReturnType<typeof renderRoute>) {
  await waitFor(() => {
    const asked = queryClient.getQueryCache().findAll({ queryKey: adSlotsQuery({ placement: 'preroll', embed: false, videoId: 7 }).queryKey });
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.map((query) => query.state.status)).not.toContain('pending');
  });
}

const likeButton = () => screen.getByRole('button', { name: /^Like,/ });
const videoElement = () => {
  const element = document.querySelector('video');
  if (!element) throw new Error('no video element');
  return element;
};
const hlsOptions = (): UseHlsOptions => {
  const calls = vi.mocked(useHls).mock.calls;
  return calls[calls.length - 1][2];
};

let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.mocked(useHls).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('watch page: what it shows', () => {
  it('shows the upload age, the title and the stats row of the video', async () => {
    setup({
      video: makeWatchVideo({
        id: 7,
        title: 'Pool party',
        views: 1234,
        likes: 56,
        duration: 754,
        upload_date: '2026-11-18T12:00:00.000Z',
      }),
    });

    renderRoute('/video/7');

    expect(await findTitle('Pool party')).toBeInTheDocument();
    expect(screen.getByText('3 days ago')).toBeInTheDocument();
    expect(screen.getByText(/1,23[45] views/)).toBeInTheDocument();
    expect(likeButton()).toHaveTextContent('56');
    expect(screen.getByText('12:34')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Watch later' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bookmark' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to playlist' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous video' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next video' })).toBeInTheDocument();
  });

  it("shows '--:--' while the duration is unknown, and h:mm:ss from an hour", async () => {
    setup({ video: makeWatchVideo({ id: 7, duration: null }) });
    const first = renderRoute('/video/7');
    await findTitle();
    expect(screen.getByText('--:--')).toBeInTheDocument();
    first.unmount();

    setup({ video: makeWatchVideo({ id: 7, duration: 3725 }) });
    renderRoute('/video/7');
    await findTitle();
    expect(screen.getByText('1:02:05')).toBeInTheDocument();
  });

  it("shows the brand's title", async () => {
    const video = makeWatchVideo({ id: 7, title: 'Main title', jtg_title: 'JTG title' });
    setup({ video, routes: { '/api/site': () => makeSite({ brand: 'jtg' }) } });

    renderRoute('/video/7');

    expect(await findTitle('JTG title')).toBeInTheDocument();
    expect(screen.queryByText('Main title')).not.toBeInTheDocument();
  });

  it('shares the shown title and the public link in a new tab, from a Share link in the stats row (spec §2.1)', async () => {
    setup({ video: makeWatchVideo({ id: 7, title: 'Pool party & friends' }) });

    renderRoute('/video/7');
    await findTitle('Pool party & friends');

    const share = screen.getByRole('link', { name: /^Share ?\(opens in a new tab\)$/ });
    expect(share).toHaveTextContent(/^Share/);
    expect(share.closest('.stats-row')).not.toBeNull();
    expect(share).toHaveAttribute('target', '_blank');
    expect(share).toHaveAttribute('rel', 'noopener noreferrer');
    const href = new URL(share.getAttribute('href') ?? '');
    expect(`${href.origin}${href.pathname}`).toBe('https://twitter.com/intent/tweet');
    expect(href.searchParams.get('text')).toBe('Pool party & friends');
    expect(href.searchParams.get('url')).toBe('https://test-tube.example/video/7');
  });

  it('describes the video for search engines as an adult VideoObject, and names the document', async () => {
    setup({
      video: makeWatchVideo({ id: 7, title: 'Pool party', duration: 754, upload_date: '2026-11-18T12:00:00.000Z' }),
    });

    const { container } = renderRoute('/video/7');
    await findTitle('Pool party');

    const script = container.querySelector('script[type="application/ld+json"]');
    expect(JSON.parse(script?.textContent ?? '{}')).toMatchObject({
      '@type': 'VideoObject',
      name: 'Pool party',
      thumbnailUrl: ['https://img.example.com/thumbs/2024/06/video-7/poster.jpg'],
      uploadDate: '2026-11-18T12:00:00.000Z',
      duration: 'PT12M34S',
      isFamilyFriendly: false,
    });
    await waitFor(() => expect(document.title).toBe('Pool party - Hunk Tube'));
  });

  it("leaves the VideoObject to the server's head on the page it was served for, and writes its own after a navigation", async () => {
    setup({
      video: makeWatchVideo({ id: 7, title: 'Pool party' }),
      routes: {
        '/api/videos/21': () => makeWatchVideo({ id: 21, title: 'Related one' }),
        '/api/videos/21/related': () => ({ related: false, data: [] }),
      },
    });
    const fromServer = [
      '<title data-server-head>Pool party - Hunk Tube</title>',
      '<script data-server-head type="application/ld+json">{"@type":"VideoObject","name":"Pool party"}</script>',
      '<meta data-server-head property="og:title" content="Pool party">',
    ];
    document.head.insertAdjacentHTML('beforeend', fromServer.join(''));
    const ldScripts = () => [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent ?? '').name);

    const { router } = renderRoute('/video/7');
    trackServerHead(router);
    await findTitle('Pool party');
    await waitFor(() => expect(document.title).toBe('Pool party - Hunk Tube'));
    expect(ldScripts()).toEqual(['Pool party']);
    // One title: the server's, which the app names from now on (React's own would stand beside it).
    expect(document.querySelectorAll('title')).toHaveLength(1);

    await act(() => router.navigate('/video/21'));
    await findTitle('Related one');
    expect(document.querySelectorAll('[data-server-head]')).toHaveLength(0);
    await waitFor(() => expect(ldScripts()).toEqual(['Related one']));
    await waitFor(() => expect(document.title).toBe('Related one - Hunk Tube'));
    expect(document.querySelectorAll('title')).toHaveLength(1);
  });

  it('says so when the video does not exist', async () => {
    setup({ routes: { '/api/videos/7': () => json({ error: 'Video not found', statusCode: 404 }, 404) } });

    renderRoute('/video/7');

    expect(await screen.findByRole('heading', { level: 1, name: 'Video not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the videos' })).toHaveAttribute('href', '/');
  });

  it.each(['/video/abc', '/video/0', '/video/99999999999'])('answers %s with the not-found page', async (url) => {
    setup();
    renderRoute(url);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});

describe('watch page: theater mode', () => {
  beforeEach(() => localStorage.clear());

  it('widens the page by its button and the T key, and keeps the choice on this device', async () => {
    setup();
    const user = userEvent.setup();
    const first = renderRoute('/video/7');
    await findTitle();
    const page = () => document.querySelector('article.watch');
    const button = screen.getByRole('button', { name: 'Theater mode' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(page()).not.toHaveClass('watch--theater');

    await user.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(page()).toHaveClass('watch--theater');
    expect(JSON.parse(localStorage.getItem('player_prefs') ?? '{}')).toMatchObject({ theater: true });
    // Listed with the other keys.
    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(within(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).getByText('Theater mode')).toBeInTheDocument();
    await user.keyboard('{Escape}');

    fireEvent.keyDown(document.body, { key: 't' });
    expect(page()).not.toHaveClass('watch--theater');
    fireEvent.keyDown(document.body, { key: 'T' });
    expect(page()).toHaveClass('watch--theater');
    first.unmount();

    // The next watch page opens in theater mode.
    renderRoute('/video/7');
    await findTitle();
    await waitFor(() => expect(document.querySelector('article.watch')).toHaveClass('watch--theater'));
  });
});

describe('watch page: chapters', () => {
  const chapters = [
    { start: 0, title: 'Intro' },
    { start: 95, title: 'Poolside' },
    { start: 300, title: 'Shower' },
  ];

  it('lists the chapters under the player as ?t= links that move the player there, marking the one playing', async () => {
    setup({ video: makeWatchVideo({ id: 7, duration: 600, chapters }) });
    const user = userEvent.setup();
    renderRoute('/video/7?context=watch-later');
    await findTitle();

    const list = screen.getByRole('navigation', { name: 'Chapters' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['0:00Intro', '/video/7?context=watch-later&t=0'],
      ['1:35Poolside', '/video/7?context=watch-later&t=95'],
      ['5:00Shower', '/video/7?context=watch-later&t=300'],
    ]);
    expect(links[0]).toHaveAttribute('aria-current', 'true');

    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue();
    await user.click(links[1]);
    expect(videoElement().currentTime).toBe(95);
    expect(play).toHaveBeenCalled();
    await waitFor(() => expect(within(list).getByRole('link', { name: /Poolside/ })).toHaveAttribute('aria-current', 'true'));
    // The seek bar names the chapter it is in.
    expect(screen.getByRole('slider', { name: 'Seek' })).toHaveAttribute('aria-valuetext', '1:35 of 10:00, Poolside');
    expect(document.querySelectorAll('.seek-bar__mark')).toHaveLength(2);
    play.mockRestore();
  });

  it('shows no chapter list for a video without chapters, and describes chapters as Clip parts for search engines', async () => {
    setup();
    const first = renderRoute('/video/7');
    await findTitle();
    expect(screen.queryByRole('navigation', { name: 'Chapters' })).not.toBeInTheDocument();
    first.unmount();

    setup({ video: makeWatchVideo({ id: 8, duration: 600, chapters }) });
    renderRoute('/video/8');
    await findTitle('Video 8');
    const data = [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) => JSON.parse(script.textContent ?? '{}'));
    const video = data.find((item) => item['@type'] === 'VideoObject');
    expect(video.hasPart).toEqual([
      { '@type': 'Clip', name: 'Intro', startOffset: 0, endOffset: 95, url: expect.stringMatching(/\/video\/8\?t=0$/) },
      { '@type': 'Clip', name: 'Poolside', startOffset: 95, endOffset: 300, url: expect.stringMatching(/\/video\/8\?t=95$/) },
      { '@type': 'Clip', name: 'Shower', startOffset: 300, endOffset: 600, url: expect.stringMatching(/\/video\/8\?t=300$/) },
    ]);
  });
});

describe('watch page: tags', () => {
  const tags = [
    { id: 'muscle', name: 'Muscle' },
    { id: 'pool-party', name: 'Pool party' },
  ];

  it("lists the video's tags under the player as links to their pages, and a click opens the tag's page", async () => {
    setup({
      video: makeWatchVideo({ id: 7, tags }),
      routes: {
        '/api/tags/pool-party': () => ({ id: 'pool-party', name: 'Pool party', video_count: 3 }),
        '/api/videos': () => ({ data: [makeVideo({ id: 7, title: 'Video 7' })], page: 1, limit: 24, total: 1 }),
      },
    });
    const user = userEvent.setup();
    const { router } = renderRoute('/video/7');
    await findTitle();

    const list = screen.getByRole('list', { name: 'Tags' });
    expect(within(list).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Muscle', '/tags/muscle'],
      ['Pool party', '/tags/pool-party'],
    ]);

    await user.click(within(list).getByRole('link', { name: 'Pool party' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tags/pool-party'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Newest videos tagged Pool party' })).toBeInTheDocument();
  });

  it('shows no tag list for a video without tags', async () => {
    setup();
    renderRoute('/video/7');
    await findTitle();
    expect(screen.queryByRole('list', { name: 'Tags' })).not.toBeInTheDocument();
  });
});

describe('watch page: captions', () => {
  beforeEach(() => localStorage.clear());
  const captions = [
    { lang: 'en', label: 'English', url: 'https://img.example.com/thumbs/2024/06/pool-party/captions/en.vtt?v=1' },
    { lang: 'pt-BR', label: 'Português', url: 'https://img.example.com/thumbs/2024/06/pool-party/captions/pt-BR.vtt?v=2' },
  ];

  it('gives the player a track per language and a CC menu, remembered for the next video, and C turns them on and off', async () => {
    setup({ video: makeWatchVideo({ id: 7, captions }) });
    const user = userEvent.setup();
    const first = renderRoute('/video/7');
    await findTitle();

    const tracks = [...videoElement().querySelectorAll('track')];
    expect(tracks.map((track) => [track.kind, track.srclang, track.label, track.getAttribute('src')])).toEqual([
      ['subtitles', 'en', 'English', captions[0].url],
      ['subtitles', 'pt-BR', 'Português', captions[1].url],
    ]);
    // Another origin's files load only as CORS requests.
    expect(videoElement()).toHaveAttribute('crossorigin', 'anonymous');
    const menu = screen.getByRole('combobox', { name: 'Captions' });
    expect(menu).toHaveValue('');
    expect(within(menu).getAllByRole('option').map((option) => option.textContent)).toEqual(['CC off', 'CC: English', 'CC: Português']);

    await user.selectOptions(menu, 'pt-BR');
    expect(JSON.parse(localStorage.getItem('player_prefs') ?? '{}')).toMatchObject({ captions: 'pt-BR' });
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(menu).toHaveValue('');
    expect(JSON.parse(localStorage.getItem('player_prefs') ?? '{}')).toMatchObject({ captions: null });
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(menu).toHaveValue('pt-BR');
    first.unmount();

    renderRoute('/video/7');
    await findTitle();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Captions' })).toHaveValue('pt-BR'));
  });

  it('offers no CC menu, and C does nothing, for a video without captions', async () => {
    setup();
    renderRoute('/video/7');
    await findTitle();
    expect(screen.queryByRole('combobox', { name: 'Captions' })).not.toBeInTheDocument();
    expect(videoElement().querySelectorAll('track')).toHaveLength(0);
    expect(videoElement()).not.toHaveAttribute('crossorigin');
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(localStorage.getItem('player_prefs')).toBeNull();
  });
});

describe('watch page: on load', () => {
  it('counts a trending signal and a view, and shows one more view only once the view is counted', async () => {
    let answerView: (response: Response) => void = () => {};
    const fetchMock = setup({
      video: makeWatchVideo({ id: 7, views: 41 }),
      routes: {
        '/api/video/increment-views': () => new Promise<Response>((resolve) => (answerView = resolve)),
      },
    });

    renderRoute('/video/7');
    await findTitle();

    expect(screen.getByText('41 views')).toBeInTheDocument();
    await waitFor(() => expect(sentBodies(fetchMock, '/api/video/increment-views')).toEqual([{ videoId: 7 }]));
    expect(sentBodies(fetchMock, '/api/video/add-trending')).toEqual([{ videoId: 7 }]);

    await act(async () => answerView(json({ views: 42 })));
    expect(await screen.findByText('42 views')).toBeInTheDocument();
  });

  it('keeps the count when the view is not counted', async () => {
    setup({
      video: makeWatchVideo({ id: 7, views: 41 }),
      routes: { '/api/video/increment-views': () => json({ error: 'Rate limited', statusCode: 429 }, 429) },
    });

    renderRoute('/video/7');
    await findTitle();

    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(screen.getByText('41 views')).toBeInTheDocument();
  });

  it('records the history of a member, and not of a visitor', async () => {
    const user = makeUser();
    const member = setup({ user });
    const first = renderRoute('/video/7');
    await findTitle();
    await waitFor(() => expect(sentBodies(member, '/api/video/add-history')).toHaveLength(1));
    expect(sentBodies(member, '/api/video/add-history')[0]).toMatchObject({ videoId: 7, userId: user.id, video: { id: 7 } });
    first.unmount();

    const visitor = setup();
    renderRoute('/video/7');
    await findTitle();
    await waitFor(() => expect(sentBodies(visitor, '/api/video/increment-views')).toHaveLength(1));
    expect(sentBodies(visitor, '/api/video/add-history')).toEqual([]);
  });

  it('remembers the slug of the video for the listing to scroll back to', async () => {
    setup({ video: makeWatchVideo({ id: 7, slug: 'pool-party' }) });

    renderRoute('/video/7');
    await findTitle();

    await waitFor(() => expect(window.sessionStorage.getItem('scroll_target')).toBe('pool-party'));
  });

  it('saves the duration from the player when the video has none, rounded down', async () => {
    const fetchMock = setup({
      video: makeWatchVideo({ id: 7, duration: null }),
      routes: { '/api/video/update-duration': () => ({ duration: 125 }) },
    });

    renderRoute('/video/7');
    await findTitle();

    Object.defineProperty(videoElement(), 'duration', { configurable: true, value: 125.7 });
    fireEvent.loadedMetadata(videoElement());

    await waitFor(() =>
      expect(sentBodies(fetchMock, '/api/video/update-duration')).toEqual([{ videoId: 7, videoDuration: 125 }]),
    );
    expect(await screen.findByText('2:05')).toBeInTheDocument();
  });

  it('does not save a duration that the video already has', async () => {
    const fetchMock = setup({ video: makeWatchVideo({ id: 7, duration: 125 }) });

    renderRoute('/video/7');
    await findTitle();
    Object.defineProperty(videoElement(), 'duration', { configurable: true, value: 125.7 });
    fireEvent.loadedMetadata(videoElement());

    await waitFor(() => expect(sentBodies(fetchMock, '/api/video/increment-views')).toHaveLength(1));
    expect(requestedUrls(fetchMock, '/api/video/update-duration')).toEqual([]);
  });

  it("takes the video off a member's watch-later queue when it plays, once", async () => {
    const user = makeUser();
    const fetchMock = setup({ user });

    const view = renderRoute('/video/7');
    await findTitle();
    await adsAnswered(view);
    fireEvent.play(videoElement());
    fireEvent.pause(videoElement());
    fireEvent.play(videoElement());

    await waitFor(() =>
      expect(sentBodies(fetchMock, '/api/video/add-to-watch-later')).toEqual([
        { videoId: 7, userId: user.id, action: 'delete' },
      ]),
    );
  });

  it("sends nothing to the queue when a visitor plays", async () => {
    const fetchMock = setup();

    const view = renderRoute('/video/7');
    await findTitle();
    await adsAnswered(view);
    fireEvent.play(videoElement());

    await waitFor(() => expect(sentBodies(fetchMock, '/api/video/increment-views')).toHaveLength(1));
    expect(requestedUrls(fetchMock, '/api/video/add-to-watch-later')).toEqual([]);
  });
});

describe('watch page: login prompts for visitors', () => {
  const BOOKMARK = 'Log in to bookmark your favorite videos and more';
  const WATCH_LATER = 'Log in to add videos to your watch later queue and more';
  const PLAYLIST = 'Log in to add videos to playlists and more';

  it('asks a visitor to log in to bookmark, linking back to this page', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(screen.getByRole('button', { name: 'Bookmark' }));

    expect(screen.getByRole('link', { name: BOOKMARK })).toHaveAttribute('href', '/login?ref=video/7');
    expect(requestedUrls(fetchMock, '/api/video/add-to-bookmarks')).toEqual([]);
    expect(requestedUrls(fetchMock, '/api/video/get-bookmarks')).toEqual([]);
  });

  it('shows one prompt at a time, the last one asked for', async () => {
    setup();
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();

    await user.click(screen.getByRole('button', { name: 'Bookmark' }));
    await user.click(screen.getByRole('button', { name: 'Add to playlist' }));

    expect(screen.getByRole('link', { name: PLAYLIST })).toHaveAttribute('href', '/login?ref=video/7');
    expect(screen.queryByText(BOOKMARK)).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('replaces the watch-later control with its prompt, and sends nothing', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(screen.getByRole('button', { name: 'Add to playlist' }));
    await user.click(screen.getByRole('button', { name: 'Watch later' }));

    expect(screen.getByRole('link', { name: WATCH_LATER })).toHaveAttribute('href', '/login?ref=video/7');
    expect(screen.queryByRole('button', { name: 'Watch later' })).not.toBeInTheDocument();
    expect(screen.queryByText(PLAYLIST)).not.toBeInTheDocument();
    expect(requestedUrls(fetchMock, '/api/video/add-to-watch-later')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(WATCH_LATER)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Watch later' })).toBeInTheDocument();
  });

  it('keeps the query of the page in the ref', async () => {
    setup({ routes: { '/api/playlists/3': () => json({ error: 'Unauthorized', statusCode: 401 }, 401) } });
    const user = userEvent.setup();

    renderRoute('/video/7?context=playlist&playlist=3');
    await findTitle();
    await user.click(screen.getByRole('button', { name: 'Bookmark' }));

    const href = screen.getByRole('link', { name: BOOKMARK }).getAttribute('href') ?? '';
    expect(new URL(href, 'http://localhost').pathname).toBe('/login');
    expect(new URL(href, 'http://localhost').searchParams.get('ref')).toBe('video/7?context=playlist&playlist=3');
  });

  it('brings the visitor back to the video after logging in from a prompt', async () => {
    const member = makeUser();
    let signedIn = false;
    setup({
      routes: {
        '/api/auth/me': () => (signedIn ? { user: member } : json({ error: 'Unauthorized', statusCode: 401 }, 401)),
        '/api/auth/login': () => {
          signedIn = true;
          return { accessToken: 'jwt', user: member };
        },
      },
    });
    const user = userEvent.setup();

    const { router } = renderRoute('/video/7?context=watch-later');
    await findTitle();
    await user.click(screen.getByRole('button', { name: 'Bookmark' }));
    await user.click(screen.getByRole('link', { name: BOOKMARK }));

    await user.type(await screen.findByLabelText('Email'), 'sam@example.com');
    await user.type(screen.getByLabelText('Password'), 'a long password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/video/7'));
    expect(router.state.location.search).toBe('?context=watch-later');
    expect(await findTitle()).toBeInTheDocument();
  });
});

describe('watch page: likes', () => {
  it('shows an outline heart, then a filled one with one more like once the like is counted', async () => {
    const fetchMock = setup({
      video: makeWatchVideo({ id: 7, likes: 4 }),
      routes: { '/api/video/increment-likes': () => ({ likes: 5 }) },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    expect(likeButton()).toHaveAttribute('aria-pressed', 'false');
    expect(likeButton().querySelector('svg')).toHaveAttribute('data-filled', 'false');

    await user.click(likeButton());

    await waitFor(() => expect(likeButton()).toHaveAttribute('aria-pressed', 'true'));
    expect(likeButton()).toHaveTextContent('5');
    expect(likeButton().querySelector('svg')).toHaveAttribute('data-filled', 'true');
    expect(sentBodies(fetchMock, '/api/video/increment-likes')).toEqual([{ videoId: 7 }]);
    expect(window.localStorage.getItem('liked_7')).toBe('true');
  });

  it.each([
    ['a visitor', null],
    ['a member', makeUser()],
  ])('offers %s a Report link that opens the content removal form with the video already named', async (_who, member) => {
    setup({ user: member, routes: { '/api/removal-requests': noContent } });
    const user = userEvent.setup();
    const { router } = renderRoute('/video/7');
    await findTitle();

    const report = screen.getByRole('link', { name: 'Report' });
    expect(report).toHaveAttribute('href', '/content-removal?video=7');
    await user.click(report);
    await waitFor(() => expect(router.state.location.pathname).toBe('/content-removal'));
    expect(await screen.findByLabelText('Video address(es), one per line')).toHaveValue(`${window.location.origin}/video/7`);
  });

  it('lets a member take a like back: the heart empties, the count goes down and the like is forgotten here', async () => {
    window.localStorage.setItem('liked_7', 'true');
    const fetchMock = setup({
      video: makeWatchVideo({ id: 7, likes: 5 }),
      user: makeUser(),
      routes: { '/api/video/remove-like': () => ({ likes: 4 }), '/api/video/increment-likes': () => ({ likes: 5 }) },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await waitFor(() => expect(likeButton()).toHaveAttribute('aria-pressed', 'true'));
    await user.click(likeButton());

    await waitFor(() => expect(likeButton()).toHaveAttribute('aria-pressed', 'false'));
    expect(likeButton()).toHaveTextContent('4');
    expect(sentBodies(fetchMock, '/api/video/remove-like')).toEqual([{ videoId: 7 }]);
    expect(window.localStorage.getItem('liked_7')).toBeNull();

    // And likes it again.
    await user.click(likeButton());
    await waitFor(() => expect(likeButton()).toHaveAttribute('aria-pressed', 'true'));
    expect(likeButton()).toHaveTextContent('5');
  });

  it('empties the heart without changing the count when the server says the member did not like it (409 NOT_LIKED)', async () => {
    window.localStorage.setItem('liked_7', 'true');
    setup({
      video: makeWatchVideo({ id: 7, likes: 5 }),
      user: makeUser(),
      routes: { '/api/video/remove-like': () => json({ error: 'You do not like this video', errorCode: 'NOT_LIKED', statusCode: 409 }, 409) },
    });
    const consoleError = vi.spyOn(console, 'error');
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(likeButton());
    await waitFor(() => expect(likeButton()).toHaveAttribute('aria-pressed', 'false'));
    expect(likeButton()).toHaveTextContent('5');
    expect(window.localStorage.getItem('liked_7')).toBeNull();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('keeps the like, and logs it, when taking it back fails', async () => {
    window.localStorage.setItem('liked_7', 'true');
    setup({
      video: makeWatchVideo({ id: 7, likes: 5 }),
      user: makeUser(),
      routes: { '/api/video/remove-like': () => json({ error: 'Service unavailable', statusCode: 503 }, 503) },
    });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(likeButton());
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error taking back a like', expect.anything()));
    expect(likeButton()).toHaveAttribute('aria-pressed', 'true');
    expect(likeButton()).toHaveTextContent('5');
    expect(window.localStorage.getItem('liked_7')).toBe('true');
  });

  it('sends nothing when a visitor presses a heart they filled: their like stays', async () => {
    window.localStorage.setItem('liked_7', 'true');
    const fetchMock = setup({ video: makeWatchVideo({ id: 7, likes: 5 }) });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(likeButton());
    expect(likeButton()).toHaveAttribute('aria-pressed', 'true');
    expect(requestedUrls(fetchMock, '/api/video/remove-like')).toHaveLength(0);
    expect(requestedUrls(fetchMock, '/api/video/increment-likes')).toHaveLength(0);
  });

  it('lets a visitor like too', async () => {
    const fetchMock = setup({ routes: { '/api/video/increment-likes': () => ({ likes: 1 }) } });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(likeButton());

    await waitFor(() => expect(likeButton()).toHaveAttribute('aria-pressed', 'true'));
    expect(sentBodies(fetchMock, '/api/video/increment-likes')).toHaveLength(1);
    expect(screen.queryByText(/^Log in to/)).not.toBeInTheDocument();
  });

  it('shows 1 and a filled heart for a video liked here whose count is still 0, and sends nothing again', async () => {
    window.localStorage.setItem('liked_7', 'true');
    const fetchMock = setup({ video: makeWatchVideo({ id: 7, likes: 0 }) });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();

    expect(likeButton()).toHaveTextContent('1');
    expect(likeButton()).toHaveAttribute('aria-pressed', 'true');
    expect(likeButton().querySelector('svg')).toHaveAttribute('data-filled', 'true');

    await user.click(likeButton());
    expect(requestedUrls(fetchMock, '/api/video/increment-likes')).toEqual([]);
    expect(likeButton()).toHaveTextContent('1');
  });

  it('shows the real count of a video liked here once others liked it too', async () => {
    window.localStorage.setItem('liked_7', 'true');
    setup({ video: makeWatchVideo({ id: 7, likes: 9 }) });

    renderRoute('/video/7');
    await findTitle();

    expect(likeButton()).toHaveTextContent('9');
  });

  it("logs a failed like and changes nothing", async () => {
    setup({
      video: makeWatchVideo({ id: 7, likes: 4 }),
      routes: {
        '/api/video/increment-likes': () =>
          json({ error: 'Already liked', errorCode: 'ALREADY_LIKED', statusCode: 409 }, 409),
      },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(likeButton());

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error liking video', expect.anything()));
    expect(likeButton()).toHaveTextContent('4');
    expect(likeButton()).toHaveAttribute('aria-pressed', 'false');
    expect(window.localStorage.getItem('liked_7')).toBeNull();
  });
});

describe('watch page: watch later', () => {
  it("queues the video for a member and turns the button into a green 'Added'", async () => {
    const member = makeUser();
    const fetchMock = setup({ user: member });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(screen.getByRole('button', { name: 'Watch later' }));

    const added = await screen.findByRole('button', { name: 'Added' });
    expect(added).toHaveClass('stat--added');
    expect(screen.queryByRole('button', { name: 'Watch later' })).not.toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/video/add-to-watch-later')).toEqual([
      { videoId: 7, userId: member.id, action: 'create' },
    ]);
  });

  it.each([
    ['the server error', () => json({ error: 'Video not found', statusCode: 404 }, 404), 'Video not found'],
    ['an error field in a success body', () => ({ queued: false, error: 'Queue is full' }), 'Queue is full'],
    ['Unknown error without one', () => new Response('<html>Bad gateway</html>', { status: 502 }), 'Unknown error'],
  ])('logs a failure with %s, and the flag stays unset', async (_case, answer, detail) => {
    setup({ user: makeUser(), routes: { '/api/video/add-to-watch-later': answer } });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(screen.getByRole('button', { name: 'Watch later' }));

    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith('Error adding to your watch later queue', detail),
    );
    expect(screen.getByRole('button', { name: 'Watch later' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Added' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("logs a network failure as 'Error communicating with API'", async () => {
    setup({
      user: makeUser(),
      routes: {
        '/api/video/add-to-watch-later': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await user.click(screen.getByRole('button', { name: 'Watch later' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error communicating with API', expect.any(TypeError)));
    expect(screen.getByRole('button', { name: 'Watch later' })).toBeInTheDocument();
  });

  it('has no watch-later button in the watch-later context', async () => {
    setup({ user: makeUser(), routes: { '/api/me/watch-later': () => ({ data: [], page: 1, limit: 60, total: 0 }) } });

    renderRoute('/video/7?context=watch-later');
    await findTitle();

    expect(screen.queryByRole('button', { name: 'Watch later' })).not.toBeInTheDocument();
    expect(screen.getByText(/Uploaded/)).toBeInTheDocument();
  });
});

describe('watch page: bookmarks', () => {
  it("starts bookmarked when the member's list holds the video, and removes the bookmark", async () => {
    const member = makeUser();
    const fetchMock = setup({
      user: member,
      routes: {
        '/api/video/get-bookmarks': () => ({ bookmarks: [makeVideo({ id: 3 }), makeVideo({ id: 7 })], error: null }),
        '/api/video/add-to-bookmarks': () => ({ bookmarked: false, error: null }),
      },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    const bookmark = screen.getByRole('button', { name: 'Bookmark' });
    await waitFor(() => expect(bookmark).toHaveAttribute('aria-pressed', 'true'));
    expect(sentBodies(fetchMock, '/api/video/get-bookmarks')).toEqual([{ userId: member.id }]);

    await user.click(bookmark);

    await waitFor(() => expect(bookmark).toHaveAttribute('aria-pressed', 'false'));
    expect(sentBodies(fetchMock, '/api/video/add-to-bookmarks')).toEqual([
      expect.objectContaining({ videoId: 7, userId: member.id, action: 'delete', video: expect.objectContaining({ id: 7 }) }),
    ]);
  });

  it('starts unbookmarked when the list does not hold the video, and bookmarks it', async () => {
    const fetchMock = setup({
      user: makeUser(),
      routes: {
        '/api/video/get-bookmarks': () => ({ bookmarks: [makeVideo({ id: 3 })], error: null }),
        '/api/video/add-to-bookmarks': () => ({ bookmarked: true, error: null }),
      },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/video/get-bookmarks')).toHaveLength(1));
    const bookmark = screen.getByRole('button', { name: 'Bookmark' });
    expect(bookmark).toHaveAttribute('aria-pressed', 'false');

    await user.click(bookmark);

    await waitFor(() => expect(bookmark).toHaveAttribute('aria-pressed', 'true'));
    expect(sentBodies(fetchMock, '/api/video/add-to-bookmarks')[0]).toMatchObject({ action: 'create' });
  });

  it('leaves the bookmark as it was when the change fails', async () => {
    setup({
      user: makeUser(),
      routes: {
        '/api/video/add-to-bookmarks': () => json({ error: 'Database unavailable', statusCode: 503 }, 503),
      },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    const bookmark = screen.getByRole('button', { name: 'Bookmark' });
    await user.click(bookmark);

    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(bookmark).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('watch page: the add-to-playlist dialog', () => {
  const member = makeUser();
  const gym = makePlaylist({ playlist_id: 31, title: 'Gym Sessions' });
  const beach = makePlaylist({ playlist_id: 32, title: 'Beach days' });
  const bears = makePlaylist({ playlist_id: 33, title: 'Bears' });

  async function openDialog(routes: Routes = {}) {
    const fetchMock = setup({
      user: member,
      routes: { '/api/playlists/get-user-playlists': () => ({ data: [gym, beach, bears], error: null }), ...routes },
    });
    const user = userEvent.setup();
    renderRoute('/video/7');
    await findTitle();
    await user.click(screen.getByRole('button', { name: 'Add to playlist' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add to playlist' }));
    return { fetchMock, user, dialog, field: dialog.getByRole('textbox') };
  }

  it("lists the member's playlists in a field-focused dialog whose field takes at most 40 characters", async () => {
    const { dialog, field } = await openDialog();

    expect(await dialog.findByRole('button', { name: 'Gym Sessions' })).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Beach days' })).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'New playlist' })).toBeInTheDocument();
    expect(field).toHaveAttribute('maxLength', '40');
    expect(field).toHaveFocus();
  });

  it('filters the list by a case-insensitive part of the title', async () => {
    const { dialog, field, user } = await openDialog();
    await dialog.findByRole('button', { name: 'Gym Sessions' });

    await user.type(field, 'bea');

    expect(dialog.getByRole('button', { name: 'Beach days' })).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Bears' })).toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Gym Sessions' })).not.toBeInTheDocument();
  });

  it("says 'No playlists found' when nothing matches", async () => {
    const { dialog, field, user } = await openDialog();
    await dialog.findByRole('button', { name: 'Gym Sessions' });

    await user.type(field, 'zzz');

    expect(dialog.getByText('No playlists found')).toBeInTheDocument();
    expect(dialog.queryByRole('list')).not.toBeInTheDocument();
  });

  it("logs a failure to load the playlists and shows an empty list", async () => {
    const { dialog } = await openDialog({
      '/api/playlists/get-user-playlists': () => json({ error: 'Database unavailable', statusCode: 503 }, 503),
    });

    expect(await dialog.findByText('No playlists found')).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('Error loading user playlists', expect.anything());
    expect(dialog.getByRole('button', { name: 'New playlist' })).toBeEnabled();
  });

  it('adds the video to a chosen playlist', async () => {
    const { dialog, fetchMock, user } = await openDialog({ '/api/playlists/add-to-playlist': () => ({ error: null }) });

    await user.click(await dialog.findByRole('button', { name: 'Gym Sessions' }));

    expect(await dialog.findByText('Video added to playlist Gym Sessions')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/playlists/add-to-playlist')).toEqual([
      { video_id: 7, playlistUserId: member.id, playlist_id: 31 },
    ]);
  });

  it('says when the video is already in the chosen playlist', async () => {
    const { dialog, user } = await openDialog({
      '/api/playlists/add-to-playlist': () =>
        json({ error: 'Video is already in playlist', errorCode: '23505', statusCode: 409 }, 409),
    });

    await user.click(await dialog.findByRole('button', { name: 'Beach days' }));

    expect(await dialog.findByText('Video is already in playlist Beach days')).toBeInTheDocument();
  });

  it.each([
    ['', 'You need to give your new playlist a title'],
    ['   ', 'You need to give your new playlist a title'],
    ['abc', 'Title contains invalid characters or is too short (must be at least 4 characters)'],
    ['<b>bold</b>', 'Title contains invalid characters or is too short (must be at least 4 characters)'],
  ])('refuses the new playlist title %j with its message', async (title, message) => {
    const { dialog, field, fetchMock, user } = await openDialog();
    await dialog.findByRole('button', { name: 'Gym Sessions' });

    if (title) await user.type(field, title);
    await user.click(dialog.getByRole('button', { name: 'New playlist' }));

    expect(dialog.getByRole('alert')).toHaveTextContent(message);
    expect(requestedUrls(fetchMock, '/api/playlists/create-playlist')).toEqual([]);
    expect(requestedUrls(fetchMock, '/api/playlists/add-to-playlist')).toEqual([]);
  });

  it('creates a new playlist with the video in it', async () => {
    const { dialog, field, fetchMock, user } = await openDialog({
      '/api/playlists/create-playlist': () =>
        json({ data: { playlist_id: 40, title: 'Late nights', user_id: member.id }, error: null }, 201),
    });
    await dialog.findByRole('button', { name: 'Gym Sessions' });

    await user.type(field, '  Late nights ');
    await user.click(dialog.getByRole('button', { name: 'New playlist' }));

    expect(await dialog.findByText('Video added to playlist Late nights')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/playlists/create-playlist')).toEqual([
      { video_id: 7, title: 'Late nights', user_id: member.id, display_name: 'Sam' },
    ]);
  });

  it('uses the listed playlist that has the typed title instead of creating another', async () => {
    const { dialog, field, fetchMock, user } = await openDialog({
      '/api/playlists/add-to-playlist': () => ({ error: null }),
    });
    await dialog.findByRole('button', { name: 'Gym Sessions' });

    await user.type(field, 'Bears');
    await user.click(dialog.getByRole('button', { name: 'New playlist' }));

    expect(await dialog.findByText('Video added to playlist Bears')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/playlists/add-to-playlist')).toEqual([
      { video_id: 7, playlistUserId: member.id, playlist_id: 33 },
    ]);
    expect(requestedUrls(fetchMock, '/api/playlists/create-playlist')).toEqual([]);
  });

  it('clears the field and the messages when closed, and gives focus back', async () => {
    const { dialog, field, user } = await openDialog();
    await dialog.findByRole('button', { name: 'Gym Sessions' });
    await user.type(field, 'ab');
    await user.click(dialog.getByRole('button', { name: 'New playlist' }));

    await user.click(dialog.getByRole('button', { name: 'Close' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to playlist' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Add to playlist' }));
    const reopened = within(await screen.findByRole('dialog', { name: 'Add to playlist' }));
    expect(reopened.getByRole('textbox')).toHaveValue('');
    expect(reopened.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('watch page: related videos', () => {
  it('shows the related videos under a heading naming the site', async () => {
    const data = Array.from({ length: 8 }, (_, i) => makeVideo({ id: 100 + i }));
    setup({ related: { related: true, data } });

    renderRoute('/video/7');
    await findTitle();

    const section = await screen.findByRole('region', {
      name: "Like this video? There's more on Hunk Tube. Check out these related videos!",
    });
    expect(within(section).getAllByRole('article')).toHaveLength(8);
  });

  it('shows at most 6 hot videos when none are truly related', async () => {
    const data = Array.from({ length: 9 }, (_, i) => makeVideo({ id: 200 + i }));
    setup({ related: { related: false, data } });

    renderRoute('/video/7');
    await findTitle();

    const section = await screen.findByRole('region', {
      name: 'No related videos found. So here are some other HOT videos on Hunk Tube you might like instead!',
    });
    expect(within(section).getAllByRole('article')).toHaveLength(6);
  });
});

describe('watch page: contexts, previous and next', () => {
  const playlistVideos = [makeVideo({ id: 6, title: 'Before' }), makeVideo({ id: 7 }), makeVideo({ id: 8, title: 'After' })];
  const playlistRoutes: Routes = {
    '/api/playlists/3': () => ({
      playlist: { playlist_id: 3, title: 'Gym Sessions', user_id: makeUser().id },
      data: playlistVideos,
    }),
    '/api/videos/8': () => makeWatchVideo({ id: 8, title: 'After' }),
    '/api/videos/8/related': () => ({ related: true, data: [] }),
    '/api/videos/6': () => makeWatchVideo({ id: 6, title: 'Before' }),
    '/api/videos/6/related': () => ({ related: true, data: [] }),
  };

  it('hides the upload age and shows a smaller title in playlist context', async () => {
    setup({ user: makeUser(), routes: playlistRoutes });

    renderRoute('/video/7?context=playlist&playlist=3');

    const title = await findTitle();
    expect(title).toHaveClass('watch-details__title--small');
    expect(screen.queryByText(/Uploaded/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Watch later' })).toBeInTheDocument();
    expect(await screen.findByRole('navigation', { name: 'Playlist: Gym Sessions' })).toBeInTheDocument();
  });

  it("walks the playlist with 'Previous video' and 'Next video', keeping the context", async () => {
    setup({ user: makeUser(), routes: playlistRoutes });
    const user = userEvent.setup();

    const { router } = renderRoute('/video/7?context=playlist&playlist=3');
    await findTitle();
    await screen.findByRole('navigation', { name: 'Playlist: Gym Sessions' });

    await user.click(screen.getByRole('button', { name: 'Next video' }));
    expect(await findTitle('After')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?context=playlist&playlist=3');
    expect(screen.getByRole('button', { name: 'Next video' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Previous video' }));
    expect(await findTitle()).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous video' }));
    expect(await findTitle('Before')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/video/6');
  });

  it('plays the watch-later queue in order', async () => {
    const queue = [makeVideo({ id: 7 }), makeVideo({ id: 9, title: 'Queued next' })];
    setup({
      user: makeUser(),
      routes: {
        '/api/me/watch-later': () => ({ data: queue, page: 1, limit: 60, total: 2 }),
        '/api/videos/9': () => makeWatchVideo({ id: 9, title: 'Queued next' }),
        '/api/videos/9/related': () => ({ related: true, data: [] }),
      },
    });
    const user = userEvent.setup();

    const { router } = renderRoute('/video/7?context=watch-later');
    await findTitle();
    await screen.findByRole('navigation', { name: 'Watch later' });
    await user.click(screen.getByRole('button', { name: 'Next video' }));

    expect(await findTitle('Queued next')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?context=watch-later');
  });

  it('goes on to the first related video outside a playlist, and back again', async () => {
    setup({
      related: { related: true, data: [makeVideo({ id: 21, title: 'Related one' })] },
      routes: {
        '/api/videos/21': () => makeWatchVideo({ id: 21, title: 'Related one' }),
        '/api/videos/21/related': () => ({ related: true, data: [] }),
      },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    expect(screen.getByRole('button', { name: 'Previous video' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next video' }));

    expect(await findTitle('Related one')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous video' }));
    expect(await findTitle()).toBeInTheDocument();
  });

  it('advances when a video ends unless automatic advance is turned off, and remembers the choice', async () => {
    setup({ user: makeUser(), routes: playlistRoutes });
    const user = userEvent.setup();

    const { router } = renderRoute('/video/7?context=playlist&playlist=3');
    await findTitle();
    await screen.findByRole('navigation', { name: 'Playlist: Gym Sessions' });

    const toggle = screen.getByRole('switch', { name: 'Autoplay' });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(window.localStorage.getItem('autoplay_next')).toBe('false');
    fireEvent.ended(videoElement());
    expect(router.state.location.pathname).toBe('/video/7');

    await user.click(toggle);
    expect(window.localStorage.getItem('autoplay_next')).toBe('true');
    fireEvent.ended(videoElement());
    expect(await findTitle('After')).toBeInTheDocument();
  });
});

describe('watch page: the player', () => {
  it('plays the signed stream from the media host of the video', async () => {
    setup({ video: makeWatchVideo({ id: 7, cdn: 1 }) });

    renderRoute('/video/7');
    await findTitle();

    await waitFor(() => expect(vi.mocked(useHls)).toHaveBeenLastCalledWith(
      expect.anything(),
      `https://media1.example.com${SIGNED}`,
      expect.anything(),
    ));
  });

  it('starts at ?t= when given, else where the viewer stopped last time', async () => {
    window.localStorage.setItem('resume_7', '42');
    setup();
    const first = renderRoute('/video/7?t=90');
    await findTitle();
    expect(hlsOptions().startPosition()).toBe(90);
    first.unmount();

    setup();
    renderRoute('/video/7');
    await findTitle();
    expect(hlsOptions().startPosition()).toBe(42);
  });

  it('remembers the position on pause and forgets it at the end', async () => {
    setup();
    const view = renderRoute('/video/7');
    await findTitle();
    await adsAnswered(view);

    const video = videoElement();
    Object.defineProperty(video, 'duration', { configurable: true, value: 600 });
    video.currentTime = 123;
    fireEvent.pause(video);
    expect(window.localStorage.getItem('resume_7')).toBe('123');

    fireEvent.ended(video);
    expect(window.localStorage.getItem('resume_7')).toBeNull();
  });

  it('keeps a guest’s Continue watching in this browser: the video leads it while started, and leaves it once finished', async () => {
    window.localStorage.setItem('continue_watching', JSON.stringify([{ id: 3, at: 1 }]));
    setup();
    const view = renderRoute('/video/7');
    await findTitle();
    await adsAnswered(view);

    const video = videoElement();
    Object.defineProperty(video, 'duration', { configurable: true, value: 600 });
    video.currentTime = 123;
    fireEvent.pause(video);
    expect(JSON.parse(window.localStorage.getItem('continue_watching') ?? '[]')).toEqual([
      { id: 7, at: NOW.getTime() },
      { id: 3, at: 1 },
    ]);
    video.currentTime = 597;
    fireEvent.pause(video);
    expect(JSON.parse(window.localStorage.getItem('continue_watching') ?? '[]')).toEqual([{ id: 3, at: 1 }]);
  });

  it('sends a member’s position to the history on pause, at the end, and as the page goes; never to this browser’s guest row', async () => {
    const sent: unknown[] = [];
    const fetchMock = setup({
      user: makeUser(),
      routes: {
        '/api/me/history/7/position': (_url, init) => {
          const body = JSON.parse(String(init?.body)) as { position: number | null };
          sent.push(body.position);
          return { recorded: true, position: body.position };
        },
      },
    });
    const view = renderRoute('/video/7');
    await findTitle();
    await adsAnswered(view);

    const video = videoElement();
    Object.defineProperty(video, 'duration', { configurable: true, value: 600 });
    video.currentTime = 123.6;
    fireEvent.pause(video);
    await waitFor(() => expect(sent).toEqual([123]));
    expect(requestedUrls(fetchMock, '/api/me/history/7/position')).toHaveLength(1);
    expect(fetchMock.mock.calls.find(([input]) => String(input).includes('/position'))?.[1]).toMatchObject({ method: 'PUT' });

    // While playing, the position goes at most every 30 seconds: this one waits for the page to go.
    video.currentTime = 140;
    fireEvent.timeUpdate(video);
    expect(sent).toEqual([123]);
    view.unmount();
    await waitFor(() => expect(sent).toEqual([123, 140]));

    const again = renderRoute('/video/7');
    await findTitle();
    await adsAnswered(again);
    fireEvent.ended(videoElement());
    await waitFor(() => expect(sent).toEqual([123, 140, null]));
    expect(window.localStorage.getItem('continue_watching')).toBeNull();
  });

  it('stops sending a member’s position once the API says the history is paused', async () => {
    const sent: unknown[] = [];
    setup({
      user: makeUser(),
      routes: {
        '/api/me/history/7/position': (_url, init) => {
          sent.push(JSON.parse(String(init?.body)).position);
          return { recorded: false, position: 1 };
        },
      },
    });
    const view = renderRoute('/video/7');
    await findTitle();
    await adsAnswered(view);
    const video = videoElement();
    Object.defineProperty(video, 'duration', { configurable: true, value: 600 });
    video.currentTime = 50;
    fireEvent.pause(video);
    await waitFor(() => expect(sent).toEqual([50]));
    video.currentTime = 80;
    fireEvent.pause(video);
    fireEvent.ended(video);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([50]);
  });

  it('fetches a new signed address when the old one expires and resumes at the same time', async () => {
    let n = 0;
    const fetchMock = setup({
      routes: {
        '/api/video/secure': () => {
          n += 1;
          return { secureUrl: `/s/token${n},1900000000/videos/x/index.m3u8`, expiresAt: '2030-03-17T17:46:40.000Z' };
        },
      },
    });
    renderRoute('/video/7');
    await findTitle();
    await waitFor(() => expect(vi.mocked(useHls)).toHaveBeenLastCalledWith(
      expect.anything(), 'https://media1.example.com/s/token1,1900000000/videos/x/index.m3u8', expect.anything()));

    videoElement().currentTime = 321;
    act(() => hlsOptions().onSourceExpired());

    await waitFor(() => expect(vi.mocked(useHls)).toHaveBeenLastCalledWith(
      expect.anything(), 'https://media1.example.com/s/token2,1900000000/videos/x/index.m3u8', expect.anything()));
    expect(hlsOptions().startPosition()).toBe(321);
    expect(requestedUrls(fetchMock, '/api/video/secure')[0].searchParams.get('path')).toBe(
      '/videos/2024/06/video-7/index.m3u8',
    );
  });

  it('shows the storyboard tile over the seek bar on hover', async () => {
    const storyboard = 'https://img.example.com/thumbs/2024/06/video-7/storyboard.vtt';
    setup({
      video: makeWatchVideo({ id: 7, duration: 10, storyboard }),
      routes: {
        '/thumbs/2024/06/video-7/storyboard.vtt': () =>
          new Response(
            'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nsprite-0.jpg#xywh=0,0,160,90\n\n00:00:05.000 --> 00:00:10.000\nsprite-0.jpg#xywh=160,0,160,90\n',
            { headers: { 'Content-Type': 'text/vtt' } },
          ),
      },
    });
    renderRoute('/video/7');
    await findTitle();

    const bar = screen.getByTestId('seek-bar');
    bar.getBoundingClientRect = () => ({ left: 0, width: 100, top: 0, height: 10, right: 100, bottom: 10, x: 0, y: 0, toJSON() {} });
    // The pointer stays: the tile shows once the storyboard has come (firing inside waitFor would keep the page's
    // tasks from running, each event a DOM change that calls the check again).
    fireEvent.pointerMove(bar, { clientX: 75 });
    expect(await screen.findByTestId('storyboard-tile')).toHaveStyle({ backgroundPosition: '-160px -0px' });
    expect(screen.getByTestId('storyboard-tile').style.backgroundImage).toContain(
      'https://img.example.com/thumbs/2024/06/video-7/sprite-0.jpg',
    );
    expect(screen.getByRole('tooltip')).toHaveTextContent('0:07');

    fireEvent.pointerLeave(bar);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('answers the keyboard shortcuts, but not while typing', async () => {
    setup({ user: makeUser() });
    const user = userEvent.setup();
    renderRoute('/video/7');
    await findTitle();
    const video = videoElement();
    Object.defineProperty(video, 'duration', { configurable: true, value: 600 });
    const play = vi.spyOn(video, 'play');

    await user.keyboard('k');
    expect(play).toHaveBeenCalledTimes(1);
    video.currentTime = 100;
    await user.keyboard('l');
    expect(video.currentTime).toBe(110);
    await user.keyboard('j');
    expect(video.currentTime).toBe(100);
    await user.keyboard('{ArrowRight}');
    expect(video.currentTime).toBe(105);
    await user.keyboard('{ArrowLeft}');
    expect(video.currentTime).toBe(100);
    await user.keyboard('m');
    expect(video.muted).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Add to playlist' }));
    await user.type(await screen.findByRole('textbox'), 'kljm');
    expect(play).toHaveBeenCalledTimes(1);
    expect(video.currentTime).toBe(100);
    expect(video.muted).toBe(true);
  });

  it('offers the stream renditions and Auto in the quality menu', async () => {
    const setLevel = vi.fn();
    vi.mocked(useHls).mockReturnValue({
      levels: [
        { index: 1, label: '720p' },
        { index: 0, label: '360p' },
      ],
      level: -1,
      setLevel,
    });
    setup();
    const user = userEvent.setup();
    renderRoute('/video/7');
    await findTitle();

    const quality = screen.getByRole('combobox', { name: 'Quality' });
    expect(within(quality).getAllByRole('option').map((option) => option.textContent)).toEqual(['Auto', '720p', '360p']);
    await user.selectOptions(quality, '720p');
    expect(setLevel).toHaveBeenCalledWith(1);
    vi.mocked(useHls).mockReset();
    vi.mocked(useHls).mockImplementation(() => ({ levels: [], level: -1, setLevel: () => {} }));
  });
});

describe('watch page: finishing the profile', () => {
  it('asks a new account for its display name, then goes away', async () => {
    const fresh = makeUser({}, { role_id: null, display_name: 'sam' });
    const fetchMock = setup({
      user: fresh,
      routes: { '/api/auth/me': (_url, init) =>
        init?.method === 'PATCH'
          ? { user: makeUser({}, { role_id: 'member', display_name: 'Sam the Man' }) }
          : { user: fresh } },
    });
    const user = userEvent.setup();

    renderRoute('/video/7');
    await findTitle();
    const panel = within(screen.getByRole('region', { name: 'Finish your profile' }));
    const name = panel.getByLabelText('Display name');
    await user.clear(name);
    await user.type(name, 'Sam the Man');
    await user.click(panel.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('region', { name: 'Finish your profile' })).not.toBeInTheDocument());
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ displayName: 'Sam the Man' });
    expect(screen.getByText('Sam the Man')).toBeInTheDocument();
  });

  it('is not shown to members', async () => {
    setup({ user: makeUser() });
    renderRoute('/video/7');
    await findTitle();
    expect(screen.queryByRole('region', { name: 'Finish your profile' })).not.toBeInTheDocument();
  });
});
