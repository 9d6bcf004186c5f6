import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AGE_CONFIRMED_KEY } from '@/lib/storage';
import { makeSite, makeVideo, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, noContent, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';
import { ADS_ORIGIN, vastFixture, xml } from '@/testing/vast';
import type { AdSlot } from '../api/get-ads';

// The player's breaks on the watch page as the app puts it together (the layout gives the page its ad slots).
// hls.js needs Media Source Extensions, which jsdom lacks: the stream's hook is stubbed, as in the page's tests.
vi.mock('@/features/watch/hooks/use-hls', () => ({
  useHls: vi.fn(() => ({ levels: [], level: -1, setLevel: () => {} })),
}));

const zones: Record<string, AdSlot[]> = {
  preroll: [{ id: 5, placement: 'preroll', kind: 'vast', vastUrl: `${ADS_ORIGIN}/vast/inline-linear.xml`, html: null, skipAfter: 2, weight: 1, frequencyCap: null }],
  postroll: [{ id: 6, placement: 'postroll', kind: 'vast', vastUrl: `${ADS_ORIGIN}/vast/inline-linear.xml`, html: null, skipAfter: null, weight: 1, frequencyCap: null }],
  pause: [{ id: 7, placement: 'pause', kind: 'html', vastUrl: null, html: '<p>Pause sale</p>', skipAfter: null, weight: 1, frequencyCap: null }],
};

function setup(answer: Record<string, AdSlot[]> = zones) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => json({ error: 'Unauthorized', statusCode: 401 }, 401),
    '/api/videos/7': () => makeWatchVideo({ id: 7 }),
    '/api/videos/7/related': () => ({ related: true, data: [makeVideo({ id: 21, title: 'Related one' })] }),
    '/api/videos/21': () => makeWatchVideo({ id: 21, title: 'Related one' }),
    '/api/videos/21/related': () => ({ related: true, data: [] }),
    '/api/video/secure': () => ({ secureUrl: '/s/token,1900000000/videos/x/index.m3u8', expiresAt: '2030-03-17T17:46:40.000Z' }),
    '/api/video/add-trending': noContent,
    '/api/video/increment-views': () => ({ views: 1 }),
    '/api/ads': (url) => ({ data: answer[url.searchParams.get('placement') ?? ''] ?? [] }),
    '/api/ads/5/events': noContent,
    '/api/ads/6/events': noContent,
    '/api/ads/7/events': noContent,
    '/vast/inline-linear.xml': () => xml(vastFixture('inline-linear')),
  });
}

/** The player's requests for its zones (the page's banner slots ask for theirs too). */
const playerAsked = (fetchMock: ReturnType<typeof mockFetch>) =>
  requestedUrls(fetchMock, '/api/ads')
    .map((url) => url.searchParams.get('placement'))
    .filter((placement) => !placement?.startsWith('banner-'));

const content = () => document.querySelector('video.player__video') as HTMLVideoElement;
const adVideo = () => document.querySelector('video.ad-break__video') as HTMLVideoElement | null;
const playButton = () => screen.getByRole('button', { name: /^(Play|Pause)$/ });

beforeEach(() => {
  vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === 'video/mp4' ? 'maybe' : ''));
});

describe('the player’s ad breaks', () => {
  it('plays the pre-roll before the content, which then starts where the address says', async () => {
    const fetchMock = setup();
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play');
    renderRoute('/video/7?t=30');
    await screen.findByRole('heading', { level: 1, name: 'Video 7' });
    await waitFor(() => expect(playerAsked(fetchMock)).toEqual(['preroll']));

    await userEvent.click(playButton());
    const region = await screen.findByRole('region', { name: 'Advertisement' });
    await waitFor(() => expect(adVideo()).toHaveAttribute('src', `${ADS_ORIGIN}/media/ad.mp4`));
    // The content waits, its controls out of reach meanwhile.
    expect(play.mock.contexts.filter((element) => element === content())).toEqual([]);
    expect(content().closest('.player__stage')).toHaveAttribute('inert');
    expect(within(region).getByText(/^Ad · /)).toBeInTheDocument();

    fireEvent.playing(adVideo() as HTMLVideoElement);
    fireEvent.ended(adVideo() as HTMLVideoElement);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Advertisement' })).toBeNull());
    expect(play.mock.contexts.filter((element) => element === content())).toHaveLength(1);
    expect(playButton()).toHaveAccessibleName('Pause');
    expect(content().closest('.player__stage')).not.toHaveAttribute('inert');
    // The stream is started at ?t= (the hook reads where to start at each attach).
    const { useHls } = await import('@/features/watch/hooks/use-hls');
    const calls = vi.mocked(useHls).mock.calls;
    expect(calls[calls.length - 1][2].startPosition()).toBe(30);
    // The post-roll's and pause's zones are asked for once the content has started.
    await waitFor(() => expect(playerAsked(fetchMock).sort()).toEqual(['pause', 'postroll', 'preroll']));
  });

  it('shows the pause zone when the viewer pauses, gone when the content plays again', async () => {
    setup({ pause: zones.pause });
    renderRoute('/video/7');
    await screen.findByRole('heading', { level: 1, name: 'Video 7' });
    await userEvent.click(playButton());
    expect(playButton()).toHaveAccessibleName('Pause');
    // (jsdom's media elements do not keep their paused state: the viewer's pause and play come as their events.)
    fireEvent.pause(content());
    const frame = await screen.findByTitle('Advertisement');
    expect(frame).toHaveAttribute('srcdoc', '<p>Pause sale</p>');
    expect(screen.getByRole('region', { name: 'Advertisement' })).toHaveTextContent('Advertisement');
    // The player's controls stay within reach.
    expect(content().closest('.player__stage')).not.toHaveAttribute('inert');
    fireEvent.play(content());
    await waitFor(() => expect(screen.queryByTitle('Advertisement')).toBeNull());
  });

  it('plays the post-roll at the end, then goes on to the next video', async () => {
    const fetchMock = setup({ postroll: zones.postroll });
    const { router } = renderRoute('/video/7');
    await screen.findByRole('heading', { level: 1, name: 'Video 7' });
    await userEvent.click(playButton());
    await waitFor(() => expect(playerAsked(fetchMock)).toContain('postroll'));
    fireEvent.ended(content());
    await waitFor(() => expect(adVideo()).toHaveAttribute('src', `${ADS_ORIGIN}/media/ad.mp4`));
    expect(router.state.location.pathname).toBe('/video/7');
    fireEvent.ended(adVideo() as HTMLVideoElement);
    await waitFor(() => expect(router.state.location.pathname).toBe('/video/21'));
  });

  it('plays the content at once where there is no zone', async () => {
    const fetchMock = setup({});
    renderRoute('/video/7');
    await screen.findByRole('heading', { level: 1, name: 'Video 7' });
    await waitFor(() => expect(playerAsked(fetchMock)).toEqual(['preroll']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await userEvent.click(playButton());
    expect(playButton()).toHaveAccessibleName('Pause');
    expect(screen.queryByRole('region', { name: 'Advertisement' })).toBeNull();
  });

  it('asks for no ad while the 18+ gate is up', async () => {
    localStorage.removeItem(AGE_CONFIRMED_KEY);
    const fetchMock = setup();
    renderRoute('/video/7');
    const gate = await screen.findByRole('dialog', { name: /is an adult website/ });
    await screen.findByRole('heading', { level: 1, name: 'Video 7', hidden: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestedUrls(fetchMock, '/api/ads')).toEqual([]);

    await userEvent.click(within(gate).getByRole('button', { name: /I am 18 or older/ }));
    await waitFor(() => expect(playerAsked(fetchMock)).toContain('preroll'));
  });
});
