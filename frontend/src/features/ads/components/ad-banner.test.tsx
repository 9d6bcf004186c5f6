import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BannerSlot, type BannerPlacement } from '@/lib/ad-slots';
import { createQueryClient } from '@/lib/react-query';
import { mockFetch, noContent, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { AdsProvider } from '../ads-provider';
import type { AdSlot } from '../api/get-ads';
import { AD_IMPRESSIONS_KEY } from '../utils/impressions';
import { bannerSize } from './ad-banner';

const HTML = '<a href="https://ads.test/landing" target="_blank">Summer sale</a>';

const banner = (overrides: Partial<AdSlot> = {}): AdSlot => ({
  id: 3,
  placement: 'banner-listing',
  kind: 'html',
  vastUrl: null,
  html: HTML,
  skipAfter: null,
  weight: 1,
  frequencyCap: null,
  ...overrides,
});

/** jsdom has no IntersectionObserver: this one reports what a test says. */
class FakeObserver {
  static instances: FakeObserver[] = [];
  readonly targets: Element[] = [];
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeObserver.instances.push(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  disconnect() {
    this.targets.length = 0;
  }
  /** The observed boxes come into the margin around the viewport. */
  static enter() {
    for (const observer of FakeObserver.instances) {
      const entries = observer.targets.map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry);
      if (entries.length > 0) observer.callback(entries, observer as unknown as IntersectionObserver);
    }
  }
}

beforeEach(() => {
  FakeObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});

function setup(zones: AdSlot[]) {
  return mockFetch({ '/api/ads': () => ({ data: zones }), '/api/ads/3/events': noContent });
}

/**
 * A page with content down to `contentBottom` pixels (jsdom lays nothing out: the element before the slot says
 * where it ends), `width` pixels wide, and a banner slot after it.
 */
function renderPage({ contentBottom, width = 1000, placement = 'banner-listing', enabled = true }: { contentBottom: number; width?: number; placement?: BannerPlacement; enabled?: boolean }) {
  vi.spyOn(HTMLParagraphElement.prototype, 'getBoundingClientRect').mockReturnValue({ top: 0, bottom: contentBottom } as DOMRect);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width);
  return render(
    <QueryClientProvider client={createQueryClient({ queries: { retry: false } })}>
      <AdsProvider enabled={enabled} embed={false}>
        <section>
          <p>The page’s content</p>
          <BannerSlot placement={placement} />
        </section>
      </AdsProvider>
    </QueryClientProvider>,
  );
}

const events = (fetchMock: ReturnType<typeof mockFetch>) => sentBodies(fetchMock, '/api/ads/3/events').map((body) => (body as { event: string }).event);

describe('a banner slot', () => {
  it('reserves its box below the fold at the banner’s size, labelled Advertisement, and loads the frame near the viewport', async () => {
    const fetchMock = setup([banner()]);
    renderPage({ contentBottom: window.innerHeight + 50 });
    const slot = await screen.findByRole('complementary', { name: 'Advertisement' });
    expect(slot).toHaveTextContent('Advertisement');
    const box = slot.querySelector('.ad-banner__box') as HTMLElement;
    expect(box.style.width).toBe('728px');
    expect(box.style.height).toBe('90px');
    // Not before it comes near the viewport.
    expect(screen.queryByTitle('Advertisement')).toBeNull();
    // Watched (an effect of the box, which may run a moment after the box shows) with a margin around the viewport.
    await waitFor(() => expect(FakeObserver.instances.at(-1)?.options?.rootMargin).toBe('200px'));

    act(() => FakeObserver.enter());
    const frame = screen.getByTitle('Advertisement');
    expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-same-origin');
    expect(frame).toHaveAttribute('srcdoc', HTML);
    expect(frame).toHaveAttribute('width', '728');
    expect(frame).toHaveAttribute('height', '90');
    fireEvent.load(frame);
    fireEvent.load(frame);
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill', 'impression']));
    expect(requestedUrls(fetchMock, '/api/ads')[0].searchParams.toString()).toBe('placement=banner-listing&embed=false');
    expect(Object.keys(JSON.parse(localStorage.getItem(AD_IMPRESSIONS_KEY) ?? '{}'))).toEqual(['3']);
  });

  it('leaves the slot out when its spot is in sight as the answer comes: nothing the visitor sees moves', async () => {
    const fetchMock = setup([banner()]);
    const { container } = renderPage({ contentBottom: 300 });
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/ads')).toHaveLength(1));
    // The answer has been read: only the hidden marker is there.
    await waitFor(() => expect(container.querySelector('span[hidden]')).not.toBeNull());
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(events(fetchMock)).toEqual([]);
  });

  it('shows nothing for a zone over its cap, or with none', async () => {
    localStorage.setItem(AD_IMPRESSIONS_KEY, JSON.stringify({ 3: [Date.now() - 1000] }));
    const fetchMock = setup([banner({ frequencyCap: { count: 1, hours: 1 } })]);
    const { container } = renderPage({ contentBottom: window.innerHeight + 50 });
    await waitFor(() => expect(container.querySelector('span[hidden]')).not.toBeNull());
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(events(fetchMock)).toEqual([]);
  });

  it('asks for nothing while the 18+ gate is up', async () => {
    const fetchMock = setup([banner()]);
    renderPage({ contentBottom: window.innerHeight + 50, enabled: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestedUrls(fetchMock, '/api/ads')).toEqual([]);
  });

  it('draws nothing on the server', () => {
    setup([banner()]);
    const html = renderToString(
      <QueryClientProvider client={createQueryClient()}>
        <AdsProvider enabled embed={false}>
          <BannerSlot placement="banner-footer" />
        </AdsProvider>
      </QueryClientProvider>,
    );
    expect(html).toBe('');
  });
});

describe('the banner’s size', () => {
  it('is the leaderboard where it fits, else the medium rectangle (the mobile banner in the footer)', () => {
    expect(bannerSize('banner-listing', 1000)).toEqual({ width: 728, height: 90 });
    expect(bannerSize('banner-footer', 728)).toEqual({ width: 728, height: 90 });
    expect(bannerSize('banner-watch', 727)).toEqual({ width: 300, height: 250 });
    expect(bannerSize('banner-listing', 360)).toEqual({ width: 300, height: 250 });
    expect(bannerSize('banner-footer', 360)).toEqual({ width: 320, height: 50 });
  });
});
