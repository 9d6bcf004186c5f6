import { act, screen } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, startHydration } from './app/app';
import { render, type RenderRequest, withoutHoisted } from './entry-server';
import type { Rendered } from './lib/bootstrap';
import { makePage, makeSite, makeVideo, makeWatchVideo } from './testing/data';
import { json, mockFetch, requestedUrls } from './testing/mock-fetch';

const site = makeSite({ name: 'Hunk Tube' });
const request = (overrides: Partial<RenderRequest> = {}): RenderRequest => ({
  url: '/',
  origin: 'http://localhost',
  api: 'http://localhost',
  headers: {},
  site,
  user: null,
  ageConfirmed: true,
  ...overrides,
});

function catalogue() {
  return mockFetch({
    '/api/videos': (url) =>
      url.searchParams.get('featured')
        ? makePage([makeVideo({ id: 9, title: 'Featured one', featured: 1 })])
        : makePage([makeVideo({ id: 1, title: 'Pool party' }), makeVideo({ id: 2, title: 'Gym session' })], { total: 2 }),
  });
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

describe('server rendering (entry-server)', () => {
  it('renders the home page with its cards as links, and carries the reads it made', async () => {
    catalogue();
    const result = await render(request());
    expect(result).not.toBeNull();
    const { html, rendered } = result!;
    expect(html).toContain('Pool party');
    expect(html).toContain('href="/video/1"');
    expect(html).toContain('Newest videos');
    // React's own <title> is left to the head the server writes.
    expect(html.startsWith('<title')).toBe(false);
    const keys = rendered.queries.queries.map((q) => q.queryKey[0]);
    expect(keys).toContain('videos');
    // The site and the session are the bootstrap block's own fields, not carried twice.
    expect(keys).not.toContain('site');
    expect(keys).not.toContain('auth');
    expect(rendered.queries.queries.every((q) => q.state.status === 'success')).toBe(true);
  });

  it('sends a large page whole: no boundary left for an inline script to reveal, which the CSP would refuse', async () => {
    const related = Array.from({ length: 48 }, (_, i) =>
      makeVideo({ id: 100 + i, title: `A long related title number ${i} `.repeat(4), thumbnail: `/thumbs/r/${i}/poster.jpg` }),
    );
    mockFetch({
      '/api/videos/7': () => makeWatchVideo({ id: 7 }),
      '/api/videos/7/related': () => ({ related: true, data: related }),
      '/api/video/secure': () => ({ secureUrl: '/s/t,1900000000/videos/2024/06/video-7/index.m3u8', expiresAt: '2030-03-17T17:46:40.000Z' }),
    });
    const { html } = (await render(request({ url: '/video/7' })))!;
    // Far past React's 12,800-byte default for outlining a Suspense boundary.
    expect(html.length).toBeGreaterThan(40_000);
    expect(html).toContain('A long related title number 47');
    expect(html).not.toContain('<template');
    expect(html).not.toMatch(/<script(?![^>]*\b(?:src|type="application\/(?:json|ld\+json)")=?)[^>]*>/);
  });

  it('draws the 18+ gate over the page for a visitor who has not answered', async () => {
    catalogue();
    const { html } = (await render(request({ ageConfirmed: false })))!;
    expect(html).toContain('class="age-gate"');
    expect(html).toContain('Pool party');
  });

  it('leaves out a read that failed: the page shows it loading, and the browser reads it again', async () => {
    mockFetch({ '/api/videos': () => json({ error: 'Service unavailable', statusCode: 503 }, 503) });
    const { html, rendered } = (await render(request()))!;
    expect(html).not.toContain('could not be loaded');
    expect(rendered.queries.queries.map((q) => q.queryKey[0])).not.toContain('videos');
  });

  it('reads only with GETs, each with the visitor’s headers', async () => {
    const fetchMock = catalogue();
    await render(request({ headers: { cookie: 'access_token=abc' } }));
    const calls = fetchMock.mock.calls.filter(([input]) => new URL(input, 'http://localhost').pathname === '/api/videos');
    expect(calls.length).toBeGreaterThan(0);
    for (const [, init] of calls) expect(new Headers((init as unknown as RequestInit).headers).get('cookie')).toBe('access_token=abc');
  });

  it('is hydrated by the browser as it is: the same elements, no mismatch, no read made again', async () => {
    const fetchMock = catalogue();
    const { html, rendered } = (await render(request()))!;
    document.body.innerHTML = `<div id="root">${html}</div>`;
    const container = document.getElementById('root')!;
    const serverCard = container.querySelector('.video-card');
    expect(serverCard).not.toBeNull();
    fetchMock.mockClear();
    const recoverable: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error');

    // Through JSON, as the bootstrap block carries it.
    const start = await startHydration({ site, user: null, ageConfirmed: true, rendered: JSON.parse(JSON.stringify(rendered)) as Rendered });
    await act(async () => {
      root = hydrateRoot(container, <App start={start} />, { onRecoverableError: (error) => recoverable.push(error) });
    });
    expect(await screen.findByText('Pool party')).toBeInTheDocument();
    expect(container.querySelector('.video-card')).toBe(serverCard);
    expect(recoverable).toEqual([]);
    // React's development build notes that the server's renderer and the browser's ran in one process (this
    // test's only): any other error (a hydration mismatch) fails.
    const logged = consoleError.mock.calls.map((args) => String(args[0]));
    expect(logged.filter((text) => !text.startsWith('Detected multiple renderers concurrently rendering'))).toEqual([]);
    expect(requestedUrls(fetchMock, '/api/videos')).toHaveLength(0);
  });
});

describe('withoutHoisted', () => {
  it('drops the title, meta and link elements React writes before the body, and nothing after them', () => {
    expect(withoutHoisted('<title>A &amp; B</title><meta name="robots" content="noindex"/><link rel="x" href="/y"/><div><title>kept</title></div>')).toBe(
      '<div><title>kept</title></div>',
    );
    expect(withoutHoisted('<div class="app">x</div>')).toBe('<div class="app">x</div>');
  });
});
