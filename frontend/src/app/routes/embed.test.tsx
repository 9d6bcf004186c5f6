import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useHls } from '@/features/watch/hooks/use-hls';
import type { Video } from '@/lib/api/types';
import { AGE_CONFIRMED_KEY } from '@/lib/storage';
import { makeSite, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

// hls.js needs Media Source Extensions, which jsdom lacks (see watch.test.tsx).
vi.mock('@/features/watch/hooks/use-hls', () => ({
  useHls: vi.fn(() => ({ levels: [], level: -1, setLevel: () => {} })),
}));

const SIGNED = '/s/token,1900000000/videos/2024/06/video-7/index.m3u8';
const STORYBOARD = 'https://img.example.com/thumbs/2024/06/video-7/storyboard.vtt';

function setup(video: Video = makeWatchVideo({ id: 7, title: 'Pool party', storyboard: STORYBOARD }), routes = {}) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    [`/api/videos/${video.id}`]: () => video,
    '/api/video/secure': () => ({ secureUrl: SIGNED, expiresAt: '2030-03-17T17:46:40.000Z' }),
    '/api/video/increment-views': () => ({ views: video.views + 1 }),
    '/thumbs/2024/06/video-7/storyboard.vtt': () =>
      new Response('WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nsprite-0.jpg#xywh=0,0,160,90\n', {
        headers: { 'Content-Type': 'text/vtt' },
      }),
    ...routes,
  });
}

const videoElement = () => {
  const element = document.querySelector('video');
  if (!element) throw new Error('no video element');
  return element;
};
const lastHlsSource = () => {
  const calls = vi.mocked(useHls).mock.calls;
  return calls[calls.length - 1]?.[1];
};

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.mocked(useHls).mockClear();
});

describe('the embeddable player (/embed/{id})', () => {
  it("plays the video's signed stream with its poster and storyboard, like the watch page", async () => {
    const fetchMock = setup();

    renderRoute('/embed/7');

    const link = await screen.findByRole('link', { name: 'Watch on Hunk Tube' });
    expect(videoElement()).toHaveAttribute('aria-label', 'Pool party');
    expect(videoElement()).toHaveAttribute('poster', 'https://img.example.com/thumbs/2024/06/video-7/poster.jpg.1280w.webp');
    await waitFor(() => expect(lastHlsSource()).toBe(`https://media1.example.com${SIGNED}`));
    expect(requestedUrls(fetchMock, '/api/video/secure')[0].searchParams.get('path')).toBe(
      '/videos/2024/06/video-7/index.m3u8',
    );
    await waitFor(() => expect(requestedUrls(fetchMock, '/thumbs/2024/06/video-7/storyboard.vtt')).toHaveLength(1));
    expect(screen.getByRole('slider', { name: 'Seek' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
    expect(document.title).toBe('Pool party - Hunk Tube');

    // The way back to the site: the watch page, in a tab of its own (the site's other pages refuse framing).
    expect(link).toHaveAttribute('href', '/video/7');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
  });

  it('shows no site chrome, no Previous or Next and no autoplay switch', async () => {
    setup();

    renderRoute('/embed/7');
    await screen.findByRole('link', { name: 'Watch on Hunk Tube' });

    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByRole('search')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Previous video' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next video' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Autoplay' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it("shows the brand's title", async () => {
    setup(makeWatchVideo({ id: 7, title: 'Main title', atg_title: 'ATG title' }), {
      '/api/site': () => makeSite({ name: 'ATG', brand: 'atg' }),
    });

    renderRoute('/embed/7');

    expect(await screen.findByText('ATG title')).toBeInTheDocument();
    expect(videoElement()).toHaveAttribute('aria-label', 'ATG title');
    expect(screen.queryByText('Main title')).not.toBeInTheDocument();
  });

  it('counts a view when the video first plays, not when another site shows the frame', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();

    renderRoute('/embed/7');
    await screen.findByRole('link', { name: 'Watch on Hunk Tube' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestedUrls(fetchMock, '/api/video/increment-views')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Play' }));
    await waitFor(() => expect(sentBodies(fetchMock, '/api/video/increment-views')).toEqual([{ videoId: 7 }]));
    fireEvent.pause(videoElement());
    fireEvent.play(videoElement());
    expect(requestedUrls(fetchMock, '/api/video/increment-views')).toHaveLength(1);
    expect(requestedUrls(fetchMock, '/api/video/add-trending')).toHaveLength(0);
    expect(requestedUrls(fetchMock, '/api/auth/me')).toHaveLength(0);
  });

  it('starts at ?t= like the watch page', async () => {
    setup();
    renderRoute('/embed/7?t=1m30s');
    await screen.findByRole('link', { name: 'Watch on Hunk Tube' });
    const options = vi.mocked(useHls).mock.calls.at(-1)?.[2];
    expect(options?.startPosition()).toBe(90);
  });

  it("shows the watch page's not-found message for an unknown or unpublished video, its link in a new tab", async () => {
    setup(makeWatchVideo({ id: 7 }), { '/api/videos/7': () => json({ error: 'Video not found', statusCode: 404 }, 404) });

    renderRoute('/embed/7');

    expect(await screen.findByRole('heading', { level: 1, name: 'Video not found' })).toBeInTheDocument();
    expect(screen.getByText('This video does not exist or has been removed.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the videos' })).toHaveAttribute('target', '_blank');
    expect(document.querySelector('video')).toBeNull();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  it.each(['abc', '0', '07', '2147483648'])('shows the not-found message for the address /embed/%s, without asking the API', async (id) => {
    const fetchMock = setup();

    renderRoute(`/embed/${id}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Video not found' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => new URL(url, 'http://localhost').pathname.startsWith('/api/videos'))).toEqual([]);
  });
});

describe('the 18+ gate inside the frame', () => {
  beforeEach(() => window.localStorage.removeItem(AGE_CONFIRMED_KEY));

  it('covers the player until the visitor confirms, then lets it play; the answer is kept in the frame', async () => {
    setup();
    const user = userEvent.setup();

    renderRoute('/embed/7');

    const gate = await screen.findByRole('dialog', { name: 'Hunk Tube is an adult website' });
    await screen.findByText('Pool party');
    expect(videoElement().closest('[inert]')).not.toBeNull();
    // The gate takes no focus from the page around the frame; its legal links open in a new tab.
    expect(within(gate).getByRole('button', { name: 'I am 18 or older – Enter' })).not.toHaveFocus();
    expect(within(gate).getByRole('link', { name: 'Terms of service' })).toHaveAttribute('target', '_blank');
    expect(within(gate).getByRole('link', { name: '18 U.S.C. 2257 statement' })).toHaveAttribute('href', '/2257');

    await user.click(within(gate).getByRole('button', { name: 'I am 18 or older – Enter' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(videoElement().closest('[inert]')).toBeNull();
    expect(window.localStorage.getItem(AGE_CONFIRMED_KEY)).toBe('true');
  });

  it('shows no player to a visitor who leaves, and stays in the frame', async () => {
    setup();
    const user = userEvent.setup();

    const { router } = renderRoute('/embed/7');
    const gate = await screen.findByRole('dialog', { name: 'Hunk Tube is an adult website' });

    await user.click(within(gate).getByRole('button', { name: 'I am under 18 – Leave' }));

    expect(screen.getByRole('heading', { level: 1, name: 'For adults only' })).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
    expect(router.state.location.pathname).toBe('/embed/7');
    expect(window.localStorage.getItem(AGE_CONFIRMED_KEY)).toBeNull();
  });
});
