import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, noContent, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { ADS_ORIGIN, pixelPaths, prerollZone, trackPixels, vastFixture, xml } from '@/testing/vast';
import type { AdSlot } from './api/types';

const zone = prerollZone;

function setup(zones: AdSlot[]) {
  return mockFetch({
    '/api/ads': () => ({ data: zones }),
    '/api/ads/5/events': noContent,
    '/vast/inline-linear.xml': () => xml(vastFixture('inline-linear')),
  });
}

const events = (fetchMock: ReturnType<typeof mockFetch>) => sentBodies(fetchMock, '/api/ads/5/events').map((body) => (body as { event: string }).event);

/** The module afresh (it keeps one page's pre-roll), with the break that takes it over. */
async function freshModules() {
  vi.resetModules();
  const early = await import('./early-preroll');
  const { AdBreak } = await import('./components/ad-break');
  const { AdsProvider } = await import('./ads-provider');
  // The query client's context as these modules know it.
  const { QueryClientProvider } = await import('@tanstack/react-query');
  const { createQueryClient } = await import('@/lib/react-query');
  return { early, AdBreak, AdsProvider, QueryClientProvider, createQueryClient };
}

/** The server's watch page, as far as the early script reads it: the page (inert behind the gate) and the player's slot. */
function serverPage({ gate = false } = {}) {
  document.body.innerHTML = `<div id="root"><div class="app"${gate ? ' inert' : ''}><div class="player"><div class="player__early-ad"></div></div></div></div>`;
  return document.querySelector('.player__early-ad') as HTMLElement;
}

beforeEach(() => {
  vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === 'video/mp4' ? 'maybe' : ''));
});

describe('the early pre-roll', () => {
  it('asks for the zones at the address the page preloads, hands that answer to the app once, and prepares the ad', async () => {
    const fetchMock = setup([zone()]);
    serverPage();
    const { early } = await freshModules();
    early.prepareEarlyPreroll(7, 640);
    early.prepareEarlyPreroll(7, 640);
    await early.earlyPrerollSettled();

    expect(requestedUrls(fetchMock, '/api/ads').map((url) => `${url.pathname}${url.search}`)).toEqual([early.prerollAddress(7)]);
    expect(early.prerollAddress(7)).toBe('/api/ads?placement=preroll&embed=false&videoId=7');
    expect(requestedUrls(fetchMock, '/vast/inline-linear.xml')).toHaveLength(1);
    expect(requestedUrls(fetchMock, '/vast/inline-linear.xml')[0].searchParams.get('cb')).toMatch(/^\d{8}$/);
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill']));
    expect(early.hasEarlyPreroll(8)).toBe(false);
    expect(early.hasEarlyPreroll(7)).toBe(true);

    // Another slot's read, or another video's, is the app's own.
    expect(early.takeEarlyAnswer({ placement: 'postroll', embed: false, videoId: 7 })).toBeNull();
    expect(early.takeEarlyAnswer({ placement: 'preroll', embed: false, videoId: 8 })).toBeNull();
    await expect(early.takeEarlyAnswer({ placement: 'preroll', embed: false, videoId: 7 })).resolves.toEqual({ data: [zone()] });
    expect(early.takeEarlyAnswer({ placement: 'preroll', embed: false, videoId: 7 })).toBeNull();

    // The app has moved to another video before Play: its player lets this one go, and none takes it after.
    expect(early.takeEarlyPreroll(8)).toBeNull();
    expect(early.hasEarlyPreroll(7)).toBe(false);
    expect(early.takeEarlyPreroll(7)).toBeNull();
  });

  it('starts in the player’s slot when Play is pressed, and the break takes the same element over, playing on', async () => {
    const fetchMock = setup([zone()]);
    const fired = trackPixels();
    const slot = serverPage();
    const { early, AdBreak, AdsProvider, QueryClientProvider, createQueryClient } = await freshModules();
    early.prepareEarlyPreroll(7, 640);
    await early.earlyPrerollSettled();

    // Resolved once the ad's first frame is there (the app is loaded then).
    let framed = false;
    void early.startEarlyPreroll().then(() => (framed = true));
    await waitFor(() => expect(slot.querySelector('.ad-break video')).toHaveAttribute('src', `${ADS_ORIGIN}/media/ad.mp4`));
    const video = slot.querySelector('.ad-break video') as HTMLVideoElement;
    expect(framed).toBe(false);
    fireEvent.loadedData(video);
    await waitFor(() => expect(framed).toBe(true));
    expect(slot.querySelector('.ad-break')).toHaveAttribute('aria-label', 'Advertisement');
    expect(slot.querySelector('.ad-break__label')?.textContent).toBe('Ad · 0:06');
    fireEvent.playing(video);
    Object.defineProperty(video, 'currentTime', { configurable: true, writable: true, value: 1.2 });
    fireEvent.timeUpdate(video);
    expect(slot.querySelector('.ad-break__label')?.textContent).toBe('Ad · 0:05');

    // The app has hydrated: the player's break.
    const onDone = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient({ queries: { retry: false } })}>
        <AdsProvider enabled embed={false}>
          <div className="player">
            <AdBreak placement="preroll" videoId={7} volume={1} muted={false} onDone={onDone} />
          </div>
        </AdsProvider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByText('Skip in 1')).toBeInTheDocument());
    expect(document.querySelector('.ad-break__media video')).toBe(video);
    expect(slot).toBeEmptyDOMElement();
    expect(early.hasEarlyPreroll(7)).toBe(false);
    // Nothing asked again: the zones, the tag.
    expect(requestedUrls(fetchMock, '/api/ads')).toHaveLength(1);
    expect(requestedUrls(fetchMock, '/vast/inline-linear.xml')).toHaveLength(1);

    Object.defineProperty(video, 'currentTime', { configurable: true, writable: true, value: 2.1 });
    fireEvent.timeUpdate(video);
    fireEvent.playing(video);
    await userEvent.click(screen.getByRole('button', { name: 'Skip ad' }));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(pixelPaths(fired)).toEqual(['/track/inline/impression', '/track/inline/start', '/track/inline/firstQuartile', '/track/inline/skip']);
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill', 'impression', 'skip']));
  });

  it('lets the content go on at once when the ad ended before the app took it over', async () => {
    setup([zone()]);
    const slot = serverPage();
    const { early, AdBreak, AdsProvider, QueryClientProvider, createQueryClient } = await freshModules();
    early.prepareEarlyPreroll(7, 640);
    await early.earlyPrerollSettled();
    void early.startEarlyPreroll();
    await waitFor(() => expect(slot.querySelector('video')).not.toBeNull());
    fireEvent.ended(slot.querySelector('video') as HTMLVideoElement);
    expect(slot).toBeEmptyDOMElement();

    const onDone = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient({ queries: { retry: false } })}>
        <AdsProvider enabled embed={false}>
          <AdBreak placement="preroll" videoId={7} volume={1} muted={false} onDone={onDone} />
        </AdsProvider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
  });

  it('asks for nothing behind the 18+ gate, and prepares nothing without a VAST zone', async () => {
    const fetchMock = setup([zone()]);
    serverPage({ gate: true });
    let { early } = await freshModules();
    early.prepareEarlyPreroll(7, 640);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(early.takeEarlyPreroll(7)).toBeNull();

    const noVast = setup([zone({ kind: 'html', vastUrl: null, html: '<p>Ad</p>' })]);
    const slot = serverPage();
    ({ early } = await freshModules());
    early.prepareEarlyPreroll(7, 640);
    await early.earlyPrerollSettled();
    await early.startEarlyPreroll();
    expect(slot).toBeEmptyDOMElement();
    expect(early.hasEarlyPreroll(7)).toBe(false);
    expect(requestedUrls(noVast, '/api/ads')).toHaveLength(1);
    expect(events(noVast)).toEqual([]);
    await expect(early.takeEarlyPreroll(7)).resolves.toBeNull();
  });
});
