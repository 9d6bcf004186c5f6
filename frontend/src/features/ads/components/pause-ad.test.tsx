import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/react-query';
import { mockFetch, noContent, sentBodies } from '@/testing/mock-fetch';
import { ADS_ORIGIN, pixelPaths, trackPixels, vastFixture, xml } from '@/testing/vast';
import { AdsProvider } from '../ads-provider';
import type { AdSlot } from '../api/get-ads';
import { AD_IMPRESSIONS_KEY } from '../utils/impressions';
import { AdBreak } from './ad-break';

const HTML = '<a href="https://ads.test/landing" target="_blank"><img src="https://ads.test/media/pause.png" alt="Summer sale"></a>';

const pauseZone = (overrides: Partial<AdSlot>): AdSlot => ({
  id: 8,
  placement: 'pause',
  kind: 'html',
  vastUrl: null,
  html: HTML,
  skipAfter: null,
  weight: 1,
  frequencyCap: null,
  ...overrides,
});

function setup(zone: AdSlot) {
  return mockFetch({
    '/api/ads': () => ({ data: [zone] }),
    '/api/ads/8/events': noContent,
    '/vast/non-linear.xml': () => xml(vastFixture('non-linear')),
    '/vast/inline-linear.xml': () => xml(vastFixture('inline-linear')),
  });
}

function renderPause() {
  const onDone = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient({ queries: { retry: false } })}>
      <AdsProvider enabled embed={false}>
        <AdBreak placement="pause" videoId={7} volume={1} muted={false} onDone={onDone} />
      </AdsProvider>
    </QueryClientProvider>,
  );
  return { onDone };
}

const events = (fetchMock: ReturnType<typeof mockFetch>) => sentBodies(fetchMock, '/api/ads/8/events').map((body) => (body as { event: string }).event);

describe('a pause ad', () => {
  it('shows an HTML zone in a sandboxed frame without this site’s origin, closed with Close ad', async () => {
    const fetchMock = setup(pauseZone({}));
    const { onDone } = renderPause();
    const frame = await screen.findByTitle('Advertisement');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
    expect(frame).toHaveAttribute('srcdoc', HTML);
    expect(screen.getByRole('region', { name: 'Advertisement' })).toHaveTextContent('Advertisement');
    fireEvent.load(frame);
    fireEvent.load(frame);
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill', 'impression']));
    expect(Object.keys(JSON.parse(localStorage.getItem(AD_IMPRESSIONS_KEY) ?? '{}'))).toEqual(['8']);

    await userEvent.click(screen.getByRole('button', { name: 'Close ad' }));
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('shows a VAST zone’s non-linear image, linked to its click-through, with its tracking', async () => {
    const fetchMock = setup(pauseZone({ kind: 'vast', html: null, vastUrl: `${ADS_ORIGIN}/vast/non-linear.xml` }));
    const fired = trackPixels();
    const { onDone } = renderPause();
    const image = await screen.findByRole('img', { name: 'Advertisement' });
    expect(image).toHaveAttribute('src', `${ADS_ORIGIN}/media/pause.png`);
    const link = screen.getByRole('link', { name: 'Advertisement: visit the advertiser (opens in a new tab)' });
    expect(link).toHaveAttribute('href', `${ADS_ORIGIN}/landing?from=non-linear`);
    expect(link).toHaveAttribute('rel', 'noopener');
    fireEvent.load(image);
    const stay = (event: MouseEvent) => event.preventDefault();
    document.addEventListener('click', stay);
    fireEvent.click(link);
    fireEvent.click(link);
    document.removeEventListener('click', stay);
    await userEvent.click(screen.getByRole('button', { name: 'Close ad' }));
    expect(pixelPaths(fired)).toEqual(['/track/non-linear/impression', '/track/non-linear/creativeView', '/track/non-linear/click', '/track/non-linear/close']);
    expect(onDone).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'fill', 'impression', 'click']));
  });

  it('shows nothing for a VAST answer without an image: nothing plays on its own during a pause', async () => {
    const fetchMock = setup(pauseZone({ kind: 'vast', html: null, vastUrl: `${ADS_ORIGIN}/vast/inline-linear.xml` }));
    const { onDone } = renderPause();
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(document.querySelector('video, img, iframe')).toBeNull();
    await waitFor(() => expect(events(fetchMock)).toEqual(['request', 'error']));
  });
});
