import { act, screen } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, startHydration } from './app/app';
import { drawnOnServer, render, renderDocument, type DocumentRequest, type RenderRequest, withoutHoisted } from './entry-server';
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
  hidden: '',
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

/** The server's HTML in the page's #root, as the browser receives it. */
function serverPage(html: string): HTMLElement {
  document.body.innerHTML = `<div id="root">${html}</div>`;
  return document.getElementById('root')!;
}

/**
 * Hydrates the server's HTML as the browser does, a guest's page, with the reads through JSON as the bootstrap
 * block carries them; then tells what React reported: recoverable errors, and console errors but the note of its
 * development build that the server's renderer and the browser's ran in one process (these tests' only), so that
 * a hydration mismatch fails.
 */
async function hydrate(container: HTMLElement, rendered: Rendered): Promise<() => unknown[]> {
  const recoverable: unknown[] = [];
  const consoleError = vi.spyOn(console, 'error');
  const start = await startHydration({ site, user: null, ageConfirmed: true, rendered: JSON.parse(JSON.stringify(rendered)) as Rendered });
  await act(async () => {
    root = hydrateRoot(container, <App start={start} />, { onRecoverableError: (error) => recoverable.push(error) });
  });
  return () => [
    ...recoverable,
    ...consoleError.mock.calls.map((args) => String(args[0])).filter((text) => !text.startsWith('Detected multiple renderers concurrently rendering')),
  ];
}

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
    const container = serverPage(html);
    const serverCard = container.querySelector('.video-card');
    expect(serverCard).not.toBeNull();
    fetchMock.mockClear();

    const problems = await hydrate(container, rendered);
    expect(await screen.findByText('Pool party')).toBeInTheDocument();
    expect(container.querySelector('.video-card')).toBe(serverCard);
    expect(problems()).toEqual([]);
    expect(requestedUrls(fetchMock, '/api/videos')).toHaveLength(0);
  });
});

describe('a guest’s hidden topics (their cookie, handed over as `hidden`)', () => {
  /** The catalogue as the API answers `exclude`: Pool party is in the category bears, Gym session is not. */
  function filteringCatalogue() {
    const catalogue = [
      { card: makeVideo({ id: 1, title: 'Pool party' }), category: 'bears' },
      { card: makeVideo({ id: 2, title: 'Gym session' }), category: 'gym' },
    ];
    const cards = (url: URL) =>
      catalogue
        .filter(({ category }) => !(url.searchParams.get('exclude') ?? '').split(',').includes(`category:${category}`))
        .filter(({ category }) => (url.searchParams.get('category') ?? category) === category)
        .map(({ card }) => card);
    return mockFetch({
      '/api/categories': () => ({ data: [{ id: 'bears', name: 'Bears', video_count: 1 }, { id: 'gym', name: 'Gym', video_count: 1 }] }),
      '/api/videos': (url) => makePage(url.searchParams.get('featured') ? [] : cards(url)),
      '/api/videos/7': () => makeWatchVideo({ id: 7, title: 'The watched one' }),
      '/api/videos/7/related': (url) => ({ related: true, data: cards(url) }),
      '/api/video/secure': () => ({ secureUrl: '/s/t,1900000000/videos/2024/06/video-7/index.m3u8', expiresAt: '2030-03-17T17:46:40.000Z' }),
    });
  }

  it('draws the listing without them: every read carries exclude, and the hidden video’s card is left out', async () => {
    const fetchMock = filteringCatalogue();
    const { html, rendered } = (await render(request({ hidden: 'category:bears' })))!;
    expect(html).toContain('Gym session');
    expect(html).not.toContain('Pool party');
    const reads = requestedUrls(fetchMock, '/api/videos');
    expect(reads.length).toBeGreaterThan(1);
    for (const url of reads) expect(url.searchParams.get('exclude')).toBe('category:bears');
    // The reads travel under the keys the browser will ask them by; the list itself is the browser's cookie.
    const keys = rendered.queries.queries.map((q) => q.queryKey);
    expect(keys).toContainEqual(['videos', { sort: 'newest', page: 1, limit: 24, exclude: 'category:bears' }]);
    expect(keys.map((key) => key[0])).not.toContain('hidden-topics');
  });

  it('draws the watch page’s related row without them', async () => {
    const fetchMock = filteringCatalogue();
    const { html } = (await render(request({ url: '/video/7', hidden: 'category:bears' })))!;
    expect(html).toContain('Gym session');
    expect(html).not.toContain('Pool party');
    const [related] = requestedUrls(fetchMock, '/api/videos/7/related');
    expect(related.searchParams.get('exclude')).toBe('category:bears');
  });

  it('reads nothing twice: the head’s share picture comes from the same listing read as the grid', async () => {
    const fetchMock = filteringCatalogue();
    const { html } = await renderDocument({
      ...request({ url: '/categories/gym', hidden: 'category:bears' }),
      body: true,
      build: { indexHtml: '<!doctype html><html><head><title>Videos</title></head><body><div id="root"></div></body></html>', chunks: () => ({ scripts: [], styles: [] }), early: null },
      media: { imageSize: async () => null, streamStarts: async (streams) => streams },
    });
    expect(html).toContain('og:image:alt" content="Gym session"');
    const grid = requestedUrls(fetchMock, '/api/videos');
    expect(grid).toHaveLength(1);
    expect(grid[0].searchParams.get('exclude')).toBe('category:bears');
  });

  it('draws a hidden topic’s page as hidden (pressed, with its note), and the browser with the same cookie hydrates it as it is', async () => {
    const fetchMock = filteringCatalogue();
    const { html, rendered } = (await render(request({ url: '/categories/bears', hidden: 'category:bears' })))!;
    const text = html.replaceAll('<!-- -->', '');
    expect(text).toMatch(/<button class="button hide-topic hide-topic--on" type="button" aria-pressed="true"><svg[^]*?<\/svg>Hide this category<\/button>/);
    expect(text).toContain('Videos in this category are hidden');
    expect(html).toContain('This category is hidden, so its videos are not shown here.');

    window.history.replaceState(null, '', '/categories/bears');
    document.cookie = `hidden_topics=${encodeURIComponent('category:bears')}; Path=/`;
    const container = serverPage(html);
    const serverButton = container.querySelector('.hide-topic');
    fetchMock.mockClear();

    const problems = await hydrate(container, rendered);
    expect(await screen.findByRole('button', { name: 'Hide this category' })).toBe(serverButton);
    expect(serverButton).toHaveAttribute('aria-pressed', 'true');
    expect(serverButton).toBeEnabled();
    expect(problems()).toEqual([]);
    expect(requestedUrls(fetchMock, '/api/videos')).toHaveLength(0);
    window.history.replaceState(null, '', '/');
  });
});

describe('the whole document (one author per page)', () => {
  const INDEX = '<!doctype html><html><head><meta charset="UTF-8"><title>Videos</title><script type="module" src="/assets/index-a.js"></script></head><body><div id="root"></div></body></html>';
  const documentRequest = (overrides: Partial<DocumentRequest> = {}): DocumentRequest => ({
    ...request(),
    body: true,
    build: { indexHtml: INDEX, chunks: (sources) => ({ scripts: sources.map((s) => `/assets/${s.split('/').pop()}.js`), styles: ['/assets/browse.css'] }), early: null },
    media: { imageSize: async () => ({ width: 640, height: 360 }), streamStarts: async (streams) => streams },
    ...overrides,
  });
  const titles = (html: string) => [...html.matchAll(/<title[^>]*>([^<]*)<\/title>/g)].map((m) => m[1]);

  it('knows from the route table which pages it draws', () => {
    for (const url of ['/', '/?sort=longest', '/video/7', '/search?q=x', '/categories', '/categories/bears', '/performers/rex', '/tags', '/tags/muscle']) {
      expect({ url, drawn: drawnOnServer(url) }).toEqual({ url, drawn: true });
    }
    for (const url of ['/login', '/me/bookmarks', '/admin/videos', '/terms', '/embed/7', '/nowhere']) {
      expect({ url, drawn: drawnOnServer(url) }).toEqual({ url, drawn: false });
    }
  });

  it('writes a drawn page whole: one title, its head from the same reads as its body, the bootstrap block, the route\'s chunks', async () => {
    mockFetch({
      '/api/categories': () => ({ data: [{ id: 'bears', name: 'Bears & Cubs', video_count: 2 }] }),
      '/api/videos': () => makePage([makeVideo({ id: 1, title: 'Pool party', thumbnail: '/thumbs/p/poster.jpg' })], { total: 2 }),
    });
    const { html, drawn } = await renderDocument(documentRequest({ url: '/categories/bears?sort=longest' }));
    expect(drawn).toBe(true);
    expect(titles(html)).toEqual(['Bears &amp; Cubs videos']);
    expect(html).toContain('<link data-server-head rel="canonical" href="http://localhost/categories/bears?sort=longest">');
    expect(html).toContain('content="2 videos in Bears &amp; Cubs on Hunk Tube, longest first."');
    expect(html).toContain('<meta data-server-head property="og:image" content="https://img.example.com/thumbs/p/poster.jpg">');
    expect(html).toContain('<meta data-server-head property="og:image:width" content="640">');
    expect(html).toContain('"@type":"BreadcrumbList"');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/browse.css">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/browse.tsx.js">');
    const bootstrap = JSON.parse(/<script type="application\/json" id="bootstrap">(.*?)<\/script>/.exec(html)![1]);
    expect(bootstrap).toMatchObject({ site: { name: 'Hunk Tube' }, user: null, ageConfirmed: true, rendered: { queries: expect.any(Object) } });
    expect(html).toMatch(/<div id="root">.*Pool party.*<\/div>/s);
  });

  it("preloads a watch page's pre-roll zones for its first script, only where the 18+ gate is answered", async () => {
    mockFetch({
      '/api/videos/7': () => makeWatchVideo({ id: 7 }),
      '/api/videos/7/related': () => ({ related: true, data: [] }),
      '/api/video/secure': () => ({ secureUrl: '/s/t,1900000000/videos/2024/06/video-7/index.m3u8', expiresAt: '2030-03-17T17:46:40.000Z' }),
    });
    const early = { indexHtml: INDEX, script: '/assets/early.js', imports: { stream: ['/assets/hls.js'], still: [] } };
    const page = async (ageConfirmed: boolean) =>
      (await renderDocument(documentRequest({ url: '/video/7', ageConfirmed, build: { indexHtml: INDEX, chunks: () => ({ scripts: [], styles: [] }), early } }))).html;
    const preload = '<link data-server-head rel="preload" as="fetch" crossorigin href="/api/ads?placement=preroll&amp;embed=false&amp;videoId=7">';
    const confirmed = await page(true);
    expect(confirmed).toContain(preload);
    // After the stream's, which comes first.
    expect(confirmed.indexOf('index.m3u8')).toBeLessThan(confirmed.indexOf(preload));
    // The player's slot for it, empty.
    expect(confirmed).toContain('<div class="player__early-ad"></div>');
    expect(await page(false)).not.toContain('/api/ads');
  });

  it("writes a tag's page whole: its head from the tag's own read, its listing, breadcrumbs through the tag index", async () => {
    const fetchMock = mockFetch({
      '/api/tags/muscle': () => ({ id: 'muscle', name: 'Muscle & Sweat', video_count: 1 }),
      '/api/videos': () => makePage([makeVideo({ id: 3, title: 'Flexing', thumbnail: '/thumbs/f/poster.jpg' })], { total: 1 }),
    });
    const { html, drawn } = await renderDocument(documentRequest({ url: '/tags/muscle?sort=most-viewed' }));
    expect(drawn).toBe(true);
    expect(titles(html)).toEqual(['Muscle &amp; Sweat videos']);
    expect(html).toContain('<link data-server-head rel="canonical" href="http://localhost/tags/muscle?sort=most-viewed">');
    expect(html).toContain('content="1 video tagged Muscle &amp; Sweat on Hunk Tube, most viewed first."');
    expect(html).toContain('<meta data-server-head property="og:title" content="Muscle &amp; Sweat videos">');
    expect(html).toContain('<meta data-server-head property="og:image" content="https://img.example.com/thumbs/f/poster.jpg">');
    const crumbs = [...html.matchAll(/<script[^>]*type="application\/ld\+json"[^>]*>(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as { '@type': string; itemListElement?: { name: string; item: string }[] });
    expect(crumbs.find((data) => data['@type'] === 'BreadcrumbList')?.itemListElement?.map(({ name, item }) => [name, item])).toEqual([
      ['Hunk Tube', 'http://localhost/'],
      ['Tags', 'http://localhost/tags'],
      ['Muscle & Sweat', 'http://localhost/tags/muscle'],
    ]);
    expect(html).toMatch(/<div id="root">.*Most viewed videos tagged Muscle &amp; Sweat.*Flexing.*<\/div>/s);
    // The head's reads are the body's: the tag once, its first page once.
    expect(requestedUrls(fetchMock, '/api/tags/muscle')).toHaveLength(1);
    expect(requestedUrls(fetchMock, '/api/videos')).toHaveLength(1);
    expect(requestedUrls(fetchMock, '/api/videos')[0].searchParams.get('tag')).toBe('muscle');
  });

  it("draws a synonym's address as its tag's page, naming the tag's address as canonical (the browser moves there)", async () => {
    const fetchMock = mockFetch({
      '/api/tags/muscled': () => ({ id: 'muscle', name: 'Muscle', video_count: 2 }),
      '/api/videos': () => makePage([makeVideo({ id: 3, title: 'Flexing' })], { total: 2 }),
    });
    const consoleWarn = vi.spyOn(console, 'warn');
    const { html, drawn } = await renderDocument(documentRequest({ url: '/tags/muscled' }));
    expect(drawn).toBe(true);
    expect(titles(html)).toEqual(['Muscle videos']);
    expect(html).toContain('<link data-server-head rel="canonical" href="http://localhost/tags/muscle">');
    expect(html).toMatch(/<div id="root">.*Newest videos tagged Muscle.*Flexing.*<\/div>/s);
    expect(requestedUrls(fetchMock, '/api/videos').map((url) => url.searchParams.get('tag'))).toEqual(['muscle']);
    // No <Navigate> on the server, where it cannot move (React Router warns of it).
    expect(consoleWarn).not.toHaveBeenCalled();
  });

  it('writes the tag index’s head: how many tags have videos', async () => {
    mockFetch({
      '/api/tags': () => ({ data: [{ id: 'muscle', name: 'Muscle', video_count: 2 }, { id: 'beach', name: 'Beach', video_count: 1 }, { id: 'empty', name: 'Empty', video_count: 0 }] }),
    });
    const { html, drawn } = await renderDocument(documentRequest({ url: '/tags' }));
    expect(drawn).toBe(true);
    expect(titles(html)).toEqual(['Tags']);
    expect(html).toContain('<link data-server-head rel="canonical" href="http://localhost/tags">');
    expect(html).toContain('content="Every one of the 2 tags on Hunk Tube, with the number of videos of each."');
    expect(html).toMatch(/<div id="root">.*href="\/tags\/beach".*href="\/tags\/muscle".*<\/div>/s);
    expect(html).not.toContain('href="/tags/empty"');
  });

  it('writes the head alone for a page the browser draws, or when asked for no body', async () => {
    const login = await renderDocument(documentRequest({ url: '/login' }));
    expect(login.drawn).toBe(false);
    expect(titles(login.html)).toEqual(['Log in']);
    expect(login.html).toContain('<meta data-server-head name="robots" content="noindex">');
    expect(login.html).toContain('<div id="root"></div>');
    catalogue();
    const home = await renderDocument(documentRequest({ body: false }));
    expect(home.drawn).toBe(false);
    expect(titles(home.html)).toEqual(['Hunk Tube']);
    expect(home.html).toContain('<div id="root"></div>');
    expect(home.html).not.toContain('"rendered"');
  });

  it('says "Page not found" or "Video not found", with noindex and no preview, and draws nothing', async () => {
    mockFetch({
      '/api/videos/9': () => json({ error: 'Video not found', statusCode: 404 }, 404),
      '/api/tags/no-such-tag': () => json({ error: 'Tag not found', statusCode: 404 }, 404),
    });
    for (const [url, title] of [['/video/9', 'Video not found'], ['/embed/9', 'Video not found'], ['/video/abc', 'Page not found'], ['/nowhere', 'Page not found'], ['/tags/no-such-tag', 'Page not found']]) {
      const { html, drawn } = await renderDocument(documentRequest({ url }));
      expect({ url, titles: titles(html), drawn, og: html.includes('og:') }).toEqual({ url, titles: [title], drawn: false, og: false });
      expect(html).toContain('<meta data-server-head name="robots" content="noindex">');
    }
  });

  it("gives the site's own head when the catalogue cannot be read", async () => {
    mockFetch({ '/api/videos/9': () => json({ error: 'Service unavailable', statusCode: 503 }, 503) });
    const { html, drawn } = await renderDocument(documentRequest({ url: '/video/9' }));
    expect({ titles: titles(html), drawn }).toEqual({ titles: ['Hunk Tube'], drawn: false });
    expect(html).not.toContain('noindex');
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
