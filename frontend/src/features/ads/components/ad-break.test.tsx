import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlayerAdPlacement } from '@/lib/ad-slots';
import { createQueryClient } from '@/lib/react-query';
import { mockFetch, noContent, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { ADS_ORIGIN, pixelPaths, prerollZone, trackPixels, vastFixture, xml } from '@/testing/vast';
import { AdsProvider } from '../ads-provider';
import type { AdSlot } from '../api/get-ads';
import { AD_IMPRESSIONS_KEY } from '../utils/impressions';
import { AdBreak } from './ad-break';

const zone = prerollZone;

function setup(zones: AdSlot[]) {
  const routes: Parameters<typeof mockFetch>[0] = {
    '/api/ads': () => ({ data: zones }),
    '/media/ad.mp4': () => new Response('', { status: 200 }),
  };
  for (const { id } of zones) routes[`/api/ads/${id}/events`] = noContent;
  for (const name of ['inline-linear', 'wrapper-1', 'wrapper-2', 'error-404', 'no-fill', 'non-linear']) {
    routes[`/vast/${name}.xml`] = () => xml(vastFixture(name));
  }
  return mockFetch(routes);
}

function renderBreak({ placement = 'preroll', embed = false }: { placement?: PlayerAdPlacement; embed?: boolean } = {}) {
  const onDone = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient({ queries: { retry: false } })}>
      <AdsProvider enabled embed={embed}>
        <div className="player">
          <AdBreak placement={placement} videoId={7} volume={0.5} muted={false} onDone={onDone} />
        </div>
      </AdsProvider>
    </QueryClientProvider>,
  );
  return { onDone };
}

/** The ad's own video element, once its creative is there. */
async function adVideo(): Promise<HTMLVideoElement> {
  await waitFor(() => expect(document.querySelector('.ad-break__video')?.getAttribute('src')).toBe(`${ADS_ORIGIN}/media/ad.mp4`));
  return document.querySelector('.ad-break__video') as HTMLVideoElement;
}

/** The media playing at `time` of a `duration`-second creative. */
function playTo(video: HTMLVideoElement, time: number, duration = 6) {
  Object.defineProperty(video, 'duration', { configurable: true, value: duration });
  Object.defineProperty(video, 'currentTime', { configurable: true, writable: true, value: time });
  fireEvent.timeUpdate(video);
}

const events = (fetchMock: ReturnType<typeof mockFetch>, id = 5) => sentBodies(fetchMock, `/api/ads/${id}/events`).map((body) => (body as { event: string }).event);

beforeEach(() => {
  // jsdom plays nothing: the browser is taken for one that plays MP4.
  vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === 'video/mp4' ? 'maybe' : ''));
});

describe('a pre-roll', () => {
  it('plays the zone’s creative, at the content’s volume, with the time left and Skip after the zone’s offset', async () => {
    const fetchMock = setup([zone()]);
    const fired = trackPixels();
    const { onDone } = renderBreak();
    const video = await adVideo();
    expect(screen.getByRole('region', { name: 'Advertisement' })).toBeInTheDocument();
    expect(video.volume).toBe(0.5);
    expect(requestedUrls(fetchMock, '/api/ads')[0].searchParams.toString()).toBe('placement=preroll&embed=false&videoId=7');
    expect(requestedUrls(fetchMock, '/vast/inline-linear.xml')[0].searchParams.get('cb')).toMatch(/^\d{8}$/);

    fireEvent.playing(video);
    playTo(video, 0.4);
    expect(screen.getByText('Ad · 0:06')).toBeInTheDocument();
    expect(screen.getByText('Skip in 2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Skip ad' })).not.toBeInTheDocument();
    playTo(video, 1.5);
    expect(screen.getByText('Ad · 0:05')).toBeInTheDocument();
    expect(screen.getByText('Skip in 1')).toBeInTheDocument();
    playTo(video, 2.1);
    expect(screen.queryByText(/Skip in/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Skip ad' }));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(pixelPaths(fired)).toEqual(['/track/inline/impression', '/track/inline/start', '/track/inline/firstQuartile', '/track/inline/skip']);
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill', 'impression', 'skip']));
    expect(Object.keys(JSON.parse(localStorage.getItem(AD_IMPRESSIONS_KEY) ?? '{}'))).toEqual(['5']);
  });

  it('fires each tracking URL once through a wrapper chain when played to its end, then lets the content go on', async () => {
    const fetchMock = setup([zone({ vastUrl: `${ADS_ORIGIN}/vast/wrapper-1.xml`, skipAfter: null })]);
    const fired = trackPixels();
    const { onDone } = renderBreak({ placement: 'postroll' });
    const video = await adVideo();
    fireEvent.playing(video);
    fireEvent.playing(video);
    for (const time of [0.3, 1.6, 3.1, 4.6, 5.9, 3, 6]) playTo(video, time);
    // Not skippable: no button, no countdown.
    expect(screen.queryByText(/Skip/)).not.toBeInTheDocument();
    fireEvent.ended(video);
    fireEvent.ended(video);

    expect(pixelPaths(fired).sort()).toEqual(
      [
        ...['impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'].map((event) => `/track/inline/${event}`),
        ...['impression', 'start', 'complete'].map((event) => `/track/wrapper-1/${event}`),
        ...['impression', 'midpoint'].map((event) => `/track/wrapper-2/${event}`),
      ].sort(),
    );
    expect(onDone).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill', 'impression', 'complete']));
    expect(requestedUrls(fetchMock, '/api/ads')[0].searchParams.get('placement')).toBe('postroll');
  });

  it('opens the click-through in a new tab and fires the click tracking once, playing on', async () => {
    const fetchMock = setup([zone({ vastUrl: `${ADS_ORIGIN}/vast/wrapper-1.xml` })]);
    const fired = trackPixels();
    const { onDone } = renderBreak();
    await adVideo();
    const link = screen.getByRole('link', { name: 'Visit the advertiser (opens in a new tab)' });
    expect(link).toHaveAttribute('href', expect.stringMatching(new RegExp(`^${ADS_ORIGIN}/landing\\?cb=\\d{8}$`)));
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
    // jsdom does not open tabs: the visit itself is left out.
    const stay = (event: MouseEvent) => event.preventDefault();
    document.addEventListener('click', stay);
    fireEvent.click(link);
    fireEvent.click(link);
    document.removeEventListener('click', stay);
    expect(pixelPaths(fired).sort()).toEqual(['/track/inline/click', '/track/wrapper-2/click']);
    expect(onDone).not.toHaveBeenCalled();
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill', 'click']));
  });

  it('goes straight to the content when the creative will not play, reporting VAST error 405', async () => {
    const fetchMock = setup([zone({ vastUrl: `${ADS_ORIGIN}/vast/error-404.xml` })]);
    const fired = trackPixels();
    const { onDone } = renderBreak();
    await waitFor(() => expect(document.querySelector('.ad-break__video')).toHaveAttribute('src', `${ADS_ORIGIN}/media/missing.mp4`));
    fireEvent.error(document.querySelector('.ad-break__video') as HTMLVideoElement);
    fireEvent.error(document.querySelector('.ad-break__video') as HTMLVideoElement);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(fired).toEqual(['/track/error-404/error?code=405']);
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill', 'error']));
  });

  it('goes straight to the content on no fill, counting an error, and without asking anything when no zone fits', async () => {
    const fetchMock = setup([zone({ vastUrl: `${ADS_ORIGIN}/vast/no-fill.xml` })]);
    const { onDone } = renderBreak();
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'error']));
    expect(document.querySelector('.ad-break__video')).toBeNull();

    const none = setup([zone({ frequencyCap: { count: 1, hours: 24 } })]);
    localStorage.setItem(AD_IMPRESSIONS_KEY, JSON.stringify({ 5: [Date.now() - 1000] }));
    const second = renderBreak({ embed: true });
    await waitFor(() => expect(second.onDone).toHaveBeenCalledTimes(1));
    expect(requestedUrls(none, '/api/ads')[0].searchParams.get('embed')).toBe('true');
    expect(events(none)).toEqual([]);
    expect(requestedUrls(none, '/vast/inline-linear.xml')).toEqual([]);
  });

  it('goes straight to the content when the zones cannot be asked for (an ad blocker)', async () => {
    mockFetch({ '/api/ads': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { onDone } = renderBreak();
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
  });
});
