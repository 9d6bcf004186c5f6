import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, launchBrowser, newVisitor, registerMember } from './support/browser';
import { BRAND_SITE } from './support/constants';

/** A visitor who has answered the 18+ gate, as the server learns it: the cookie the gate sets. */
async function answered(context: BrowserContext): Promise<void> {
  await context.addCookies([{ name: 'age_confirmed', value: 'true', url: baseURL() }]);
}

/**
 * What the browser logs while it hydrates and runs a page: every console error and warning (React reports a
 * hydration mismatch there), uncaught errors, and the API reads the page made.
 */
function watchPage(page: Page) {
  const problems: string[] = [];
  const reads: string[] = [];
  // The ad slots' zones, asked for once the page has shown its first picture (docs/ads.md › "Web client").
  const adReads: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/ads') adReads.push(`${request.method()} ${url.pathname}${url.search}`);
    else if (url.pathname.startsWith('/api/')) reads.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  return { problems, reads, adReads };
}

/**
 * Keeps the first element the server sent inside `<main>`, taken once the document is parsed and before any
 * script of the app has run: hydration keeps it, drawing the page again would replace it.
 */
async function keepServerElement(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') {
        (window as unknown as { serverMain: Element | null }).serverMain = document.querySelector('main')?.firstElementChild ?? null;
      }
    });
  });
}

/** Holds the app's entry module back until `release`: `held` counts the times the page asked for it. */
async function holdApp(context: BrowserContext): Promise<{ held: () => number; release: () => void }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  await context.route(/\/assets\/main-[\w-]+\.js$/, async (route) => {
    held += 1;
    await released;
    await route.continue();
  });
  return { held: () => held, release };
}

const serverElementKept = (page: Page) =>
  page.evaluate(() => {
    const kept = (window as unknown as { serverMain: Element | null }).serverMain;
    return kept !== null && kept !== undefined && kept.isConnected && kept === document.querySelector('main')?.firstElementChild;
  });

describe('pages rendered on the server', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('can be read and followed without JavaScript: home, a watch page and its related links, categories, a category, the search box', async () => {
    const context = await browser.newContext({ baseURL: baseURL(), javaScriptEnabled: false });
    await answered(context);
    const page = await context.newPage();

    await page.goto('/');
    expect(await page.getByRole('heading', { level: 1, name: 'Newest videos' }).count()).toBe(1);
    const cards = page.locator('.video-grid .video-card__link');
    expect(await cards.count()).toBeGreaterThan(0);
    const cardTitle = (await cards.first().getAttribute('aria-label')) ?? (await cards.first().textContent()) ?? '';
    // A card is a plain link: followed without scripts, it loads the video's page from the server.
    await cards.first().click();
    await page.waitForURL(/\/video\/\d+$/);
    const title = (await page.locator('.watch-details__title').textContent())?.trim();
    expect(title).toBeTruthy();
    expect(cardTitle).toContain(title);
    expect(await page.title()).toMatch(new RegExp(`^${title?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} - `));
    expect(await page.locator('.stats-row').textContent()).toMatch(/\d+\s*views/);
    expect(await page.locator('video.player__video').getAttribute('poster')).toMatch(/poster\.jpg\.1280w\.webp$/);
    const related = page.locator('.related .video-card__link');
    expect(await related.count()).toBeGreaterThan(0);
    expect(await related.first().getAttribute('href')).toMatch(/^\/video\/\d+/);

    await page.goto('/categories');
    const category = page.locator('main a[href^="/categories/"]').first();
    const categoryName = ((await category.textContent()) ?? '').trim();
    await category.click();
    await page.waitForURL(/\/categories\/[^/]+$/);
    expect(await page.locator('h1').textContent()).toContain('videos');
    expect(await page.locator('.video-grid .video-card__link').count()).toBeGreaterThan(0);
    expect(categoryName).not.toBe('');

    // The header's search box, submitted without scripts, asks the server for the results page.
    const word = (title ?? '').split(/\s+/).find((w) => w.length > 3) ?? (title ?? '');
    await page.getByRole('searchbox', { name: 'Search videos' }).fill(word);
    await page.getByRole('searchbox', { name: 'Search videos' }).press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === word);
    expect(await page.locator('h1').textContent()).toBe(`Results for “${word}”`);
    expect(await page.locator('.video-grid .video-card__link').count()).toBeGreaterThan(0);

    // The filters are links: opened (a details element needs no script) and followed, the server filters the grid.
    await page.goto('/');
    await page.getByText('Filters', { exact: true }).click();
    await page.getByRole('group', { name: 'Length' }).getByRole('link', { name: 'Under 10 min' }).click();
    await page.waitForURL((url) => url.search === '?maxDuration=599');
    const short = ((await (await page.request.get('/api/videos?maxDuration=599')).json()) as { total: number }).total;
    expect(short).toBeGreaterThan(0);
    expect(await page.locator('.video-grid .video-card__link').count()).toBe(Math.min(short, 24));
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await page.getByRole('link', { name: 'Remove filter: Under 10 min' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    expect(await page.getByRole('list', { name: 'Applied filters' }).count()).toBe(0);
    await context.close();
  });

  it('writes the app’s style sheet into a rendered page, allowed by the page’s CSP by its hash, and asks for no sheet', async () => {
    const { context, page } = await newVisitor(browser);
    await answered(context);
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const sheets: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') sheets.push(new URL(request.url()).pathname);
    });
    const response = await page.goto('/');
    const html = (await response?.text()) ?? '';
    const inline = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(inline.length).toBeGreaterThan(1000);
    // The link stays beside it, disabled (not fetched), for the app's module loader to find.
    expect([...html.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((match) => match[0])).toEqual([
      expect.stringMatching(/^<link rel="stylesheet" crossorigin href="\/assets\/main-[\w-]+\.css" disabled>$/),
    ]);
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(response?.headers()['content-security-policy']).toContain(`style-src 'self' 'sha256-${hash}'`);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    // The sheet applies (the page's dark background) and none was fetched, before the app or after it.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    expect(sheets).toEqual([]);
    await context.close();
  });

  it('marks the app’s scripts for V8’s compile on load, and not hls.js (the stream’s first frame waits for it)', async () => {
    const { context, page } = await newVisitor(browser);
    await answered(context);
    const scripts = new Map<string, Promise<string>>();
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.set(pathname, response.text());
    });
    const { data } = (await (await page.request.get('/api/videos?limit=1')).json()) as { data: { id: number }[] };
    await page.goto(`/video/${data[0].id}`);
    await page.waitForFunction(() => performance.getEntriesByName('hunktube:app').length > 0);
    await page.waitForLoadState('networkidle');
    const hinted = new Map<string, boolean>();
    for (const [pathname, body] of scripts) hinted.set(pathname.replace(/-[\w-]{8}\.js$/, ''), (await body).startsWith('//# allFunctionsCalledOnLoad\n'));
    expect(Object.fromEntries(hinted)).toMatchObject({ '/assets/early': true, '/assets/main': true, '/assets/watch': true, '/assets/video-player': true, '/assets/hls.light.min': false });
    expect([...hinted].filter(([name, hint]) => !hint && name !== '/assets/hls.light.min')).toEqual([]);
    await context.close();
  });

  it('hydrates without a mismatch or a console error, keeps the server’s elements, and reads nothing it already has', async () => {
    const { context, page } = await newVisitor(browser);
    await answered(context);
    await keepServerElement(context);
    const { problems, reads, adReads } = watchPage(page);
    // What the page fetched, in order: each request's start, and each image's end.
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(`start ${new URL(request.url()).pathname}`));
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'image') fetched.push(`end ${new URL(request.url()).pathname}`);
    });

    const home = await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    expect(await serverElementKept(page)).toBe(true);
    // Every rendered page starts with its first script (src/early.ts), which loads the app once the page's first
    // images (fetched with high priority) have loaded: the head names nothing of the app's, nor hls.js.
    const homeHtml = (await home?.text()) ?? '';
    expect(homeHtml).not.toMatch(/\/assets\/(index|main|hls\.light\.min)-[\w-]+\.js/);
    expect(await page.locator('script[type="module"][src^="/assets/early-"]').count()).toBe(1);
    const homePreloads = [...homeHtml.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);
    expect(homePreloads.filter((href) => !/\/assets\/(?:early-imports|rolldown-runtime)-[\w-]+\.js$/.test(href))).toEqual([]);
    const firstImages = await page.locator('img[fetchpriority="high"]').evaluateAll((images) =>
      images.map((image) => new URL((image as HTMLImageElement).currentSrc).pathname),
    );
    expect(firstImages.length).toBeGreaterThan(0);
    const appAskedAt = fetched.findIndex((entry) => /^start \/assets\/main-[\w-]+\.js$/.test(entry));
    expect(appAskedAt).toBeGreaterThan(0);
    for (const image of firstImages) expect(fetched.indexOf(`end ${image}`), image).toBeLessThan(appAskedAt);
    // The listing, the featured row, the site and the session came with the page; the banner slots' zones are
    // what it asks for (after its first picture), and with no zone nothing of the ads is fetched but that.
    expect(reads).toEqual([]);
    expect(adReads.sort()).toEqual(['GET /api/ads?placement=banner-footer&embed=false', 'GET /api/ads?placement=banner-listing&embed=false']);
    expect(fetched.filter((entry) => /\/assets\/(?:ad-banner|ad-break|vast-client)/.test(entry))).toEqual([]);

    // The app runs: a sort tab is a navigation of the app, which reads the new listing.
    await page.getByRole('navigation', { name: 'Sort videos' }).getByRole('link', { name: 'Longest' }).click();
    await page.waitForURL(/sort=longest/);
    await page.getByRole('heading', { level: 1, name: 'Longest videos' }).waitFor();
    expect(reads.some((read) => read.startsWith('GET /api/videos?') && read.includes('sort=longest'))).toBe(true);

    // A watch page: the video, its related list and its signed stream address came with it; it plays.
    const href = await page.locator('.video-grid .video-card__link').first().getAttribute('href');
    reads.length = 0;
    const playlists: string[] = [];
    const variants: string[] = [];
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    const segments: string[] = [];
    const keys: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.key')) keys.push(new URL(request.url()).pathname);
      if (new URL(request.url()).pathname.endsWith('/index.m3u8')) playlists.push(request.url());
      if (/\/\d+p\.m3u8$/.test(new URL(request.url()).pathname)) variants.push(request.url());
      if (new URL(request.url()).pathname.endsWith('.ts')) segments.push(new URL(request.url()).pathname);
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const response = await page.goto(href ?? '/video/1');
    // The HTML names the stream's first script, hls.js and the script's imports, and nothing of the app: its
    // modules are asked for once the stream has started (the route's, listed on the script's tag, with it).
    const html = (await response?.text()) ?? '';
    expect(html).not.toMatch(/\/assets\/(index|main)-[\w-]+\.js/);
    const routeScripts = /data-route-scripts="([^"]*)"/.exec(html)?.[1].split(' ') ?? [];
    expect(routeScripts.some((script) => /^\/assets\/watch-[\w-]+\.js$/.test(script))).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    expect(await serverElementKept(page)).toBe(true);
    const id = /\/video\/(\d+)/.exec(href ?? '')?.[1];
    expect(reads.filter((read) => read === `GET /api/videos/${id}` || read === `GET /api/videos/${id}/related` || read.startsWith('GET /api/video/secure'))).toEqual([]);
    // The first segment, appended before Play, was transmuxed on the page's thread: no worker yet.
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
    expect(workers).toEqual([]);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3, undefined, { timeout: 20_000 });
    // The page's first script started the stream, then the app (src/early.ts), which took the stream over.
    expect(await page.locator('script[type="module"][src^="/assets/early-"]').count()).toBe(1);
    expect(await page.locator('script[type="module"][src^="/assets/index-"]').count()).toBe(0);
    const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((mark) => mark.name));
    expect(marks.filter((name) => name.startsWith('hunktube:'))).toEqual(['hunktube:clicks-held', 'hunktube:stream', 'hunktube:app']);
    // The app and the route came after hls.js, each script once.
    const app = scripts.findIndex((script) => /\/assets\/main-/.test(script));
    expect(app).toBeGreaterThan(scripts.findIndex((script) => /\/assets\/hls\.light/.test(script)));
    for (const script of routeScripts) expect(scripts.filter((s) => s === script)).toHaveLength(1);
    expect(new Set(scripts).size).toBe(scripts.length);
    // The head had the master playlist, the variant hls.js starts with (the first the master names), the key that
    // variant's first segment is sealed with (the demo clips are encrypted, as every new ingest) and that segment,
    // fetched before the app started; hls.js took those answers (one request each).
    const preloads = await page.locator('head link[rel="preload"][as="fetch"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    const [preloaded, variant, key, segment, zones] = preloads;
    expect(preloads).toHaveLength(5);
    // Then the pre-roll's zones, which the page's first script reads (features/ads/early-preroll.ts), and the app
    // reads from it: asked for once.
    expect(zones).toBe(`/api/ads?placement=preroll&embed=false&videoId=${id}`);
    expect(adReads.filter((read) => read.startsWith('GET /api/ads?placement=preroll'))).toHaveLength(1);
    expect(preloaded).toMatch(/^\/s\/[^/]+\/videos\/.+\/index\.m3u8$/);
    expect(variant).toBe(preloaded?.replace(/index\.m3u8$/, '240p.m3u8'));
    const keyId = /\/([0-9a-f]{16})\.key$/.exec(key ?? '')?.[1];
    expect(key).toBe(preloaded?.replace(/index\.m3u8$/, `${keyId}.key`));
    expect(segment).toBe(preloaded?.replace(/index\.m3u8$/, `240p_000-${keyId}.ts`));
    expect(playlists.map((url) => new URL(url).pathname)).toEqual([preloaded]);
    expect(variants.filter((url) => new URL(url).pathname === variant)).toHaveLength(1);
    expect(keys).toEqual([key]);
    expect(segments.filter((path) => path === segment)).toHaveLength(1);
    // The early script's imports come in one chunk (beside the bundler's runtime), not one file each.
    const modulepreloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);
    expect(modulepreloads.filter((href) => /\/assets\/early-imports-[\w-]+\.js$/.test(href))).toHaveLength(1);
    expect(modulepreloads.filter((href) => !/\/assets\/(?:hls\.light\.min|early-imports|rolldown-runtime)-[\w-]+\.js$/.test(href))).toEqual([]);
    // hls.js transmuxed the first segment on the page's thread and, once the video played, the next ones in its
    // worker (started from a blob, as the CSP allows).
    await expect.poll(() => workers.filter((url) => url.startsWith('blob:')), { timeout: 15_000 }).toHaveLength(1);
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 4.5, undefined, { timeout: 20_000 });
    expect(segments.length).toBeGreaterThan(1);

    for (const path of ['/categories', '/performers', '/search?q=hunk']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await serverElementKept(page), path).toBe(true);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('answers a click on the watch page given before the app has loaded, once it has, and the stream plays on', async () => {
    const { page, context, errors } = await newVisitor(browser);
    await answered(context);
    const { problems } = watchPage(page);
    // The app's entry module is held back until the visitor has clicked: the page is the server's HTML, with
    // the stream started by its first script (src/early.ts) and nothing listening to the buttons yet.
    const app = await holdApp(context);
    const { data } = (await (await page.request.get('/api/videos?limit=1')).json()) as { data: { id: number }[] };
    await page.goto(`/video/${data[0].id}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
    await expect.poll(app.held).toBe(1);

    await page.getByRole('button', { name: 'Bookmark' }).click();
    const prompt = page.getByRole('link', { name: 'Log in to bookmark your favorite videos and more' });
    expect(await prompt.count()).toBe(0);
    app.release();
    await prompt.waitFor();
    // The player took over the stream the page had started: Play plays it.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3, undefined, { timeout: 20_000 });
    expect(problems).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('serves a ?t= link the same HTML as the page (no new render), and hls.js starts at 5 s on its own', async () => {
    const { page, context } = await newVisitor(browser);
    await answered(context);
    const { problems } = watchPage(page);
    const segments: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.endsWith('.ts')) segments.push(path);
    });
    const { data } = (await (await page.request.get('/api/videos?limit=1')).json()) as { data: { id: number }[] };
    // One page, whatever ?t= says (docs/security.md › "Renders no one can force").
    const [plain, at5] = [await (await page.request.get(`/video/${data[0].id}`)).text(), await (await page.request.get(`/video/${data[0].id}?t=5`)).text()];
    expect(at5).toBe(plain);
    await page.goto(`/video/${data[0].id}?t=5`);
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    const preloads = await page.locator('head link[rel="preload"][as="fetch"]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(preloads).toHaveLength(5);
    // The head preloads the stream's start (its key, then its first segment); the demo clips come in 4-second
    // segments, and 5 s is in the second, which hls.js asks for itself, under the same key. Then the pre-roll's
    // zones, which the page's first script asks for (features/ads/early-preroll.ts).
    expect(preloads[4]).toBe(`/api/ads?placement=preroll&embed=false&videoId=${data[0].id}`);
    const keyId = /\/([0-9a-f]{16})\.key$/.exec(preloads[2])?.[1];
    expect(preloads[3]).toBe(preloads[0].replace(/index\.m3u8$/, `240p_000-${keyId}.ts`));
    expect(segments).toContain(preloads[0].replace(/index\.m3u8$/, `240p_001-${keyId}.ts`));
    expect(await page.evaluate(() => document.querySelector('video')?.currentTime)).toBeCloseTo(5, 0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('serves the second brand on its own host: its name, its titles and its addresses, with the same accounts', async () => {
    const main = new URL(baseURL());
    const origin = `${main.protocol}//${BRAND_SITE.host}:${main.port}`;
    // A video the demo gave a title of the brand's own.
    const listing = (await (await fetch(`${baseURL()}/api/videos?limit=60`)).json()) as { data: { id: number; title: string; jtg_title: string }[] };
    const video = listing.data.find((v) => v.jtg_title.trim() !== '' && v.jtg_title !== v.title);
    if (!video) throw new Error('the demo catalogue has no video with a jtg title');

    const context = await browser.newContext({ baseURL: origin });
    // Another origin: the 18+ answer is this host's to keep (the server reads the cookie, the app its storage).
    await context.addCookies([{ name: 'age_confirmed', value: 'true', url: origin }]);
    await context.addInitScript(() => window.localStorage.setItem('age_confirmed', 'true'));
    const page = await context.newPage();
    const { problems } = watchPage(page);
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.title()).toBe(BRAND_SITE.name);
    await page.getByRole('link', { name: BRAND_SITE.name, exact: true }).waitFor();

    await page.goto(`/video/${video.id}`);
    await page.getByRole('heading', { level: 1, name: video.jtg_title }).waitFor();
    // The document's title settles once the app has drawn the page (React puts the page's title first).
    await expect.poll(() => page.title()).toBe(`${video.jtg_title} - ${BRAND_SITE.name}`);
    expect(await page.locator('head link[rel="canonical"]').getAttribute('href')).toBe(`${origin}/video/${video.id}`);
    expect(await page.locator('head meta[property="og:site_name"]').getAttribute('content')).toBe(BRAND_SITE.name);

    // An account made on the main site signs in here.
    const mainSite = await newVisitor(browser);
    const { email, password } = await registerMember(mainSite.page, 'Both Brands');
    await mainSite.context.close();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('.user-menu__name', { hasText: 'Both Brands' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sends pictures as WebP copies at the size they show: cards on a phone, the watch page’s poster', async () => {
    // A phone as Lighthouse's mobile run sees it: 412 pixels wide at 1.75 device pixels each.
    const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
    await answered(context);
    const page = await context.newPage();
    const images = new Map<string, string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'image') images.set(new URL(response.url()).pathname, `${response.status()} ${response.headers()['content-type']}`);
    });
    await page.goto('/');
    const first = page.locator('.video-grid .thumbnail__image').first();
    await first.evaluate((img: HTMLImageElement) => img.decode());
    const shown = await first.evaluate((img: HTMLImageElement) => ({
      src: new URL(img.currentSrc).pathname,
      naturalWidth: img.naturalWidth,
      cssWidth: img.getBoundingClientRect().width,
      loading: img.loading,
      priority: img.getAttribute('fetchpriority'),
    }));
    // One card per row, about 380 CSS pixels: 665 device pixels, so the 960-pixel copy (the poster is 640 wide,
    // and a copy is never wider than its original).
    expect(shown.src).toMatch(/^\/thumbs\/.+\/poster\.jpg\.960w\.webp$/);
    expect(shown.cssWidth).toBeGreaterThan(300);
    expect(shown.naturalWidth).toBeGreaterThan(0);
    expect(shown.naturalWidth).toBeLessThanOrEqual(960);
    // The page's largest image is never lazy.
    expect(shown).toMatchObject({ loading: 'eager', priority: 'high' });
    expect(images.get(shown.src)).toBe('200 image/webp');
    // No card's original JPEG was fetched beside its copy.
    expect([...images.keys()].filter((path) => path.endsWith('.jpg'))).toEqual([]);

    // The watch page's poster: the copy the head preloaded, fetched once.
    const href = (await page.locator('.video-grid .video-card__link').first().getAttribute('href')) ?? '/video/1';
    const posterRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/poster\.jpg(?:\.1280w\.webp)?$/.test(request.url())) posterRequests.push(new URL(request.url()).pathname);
    });
    await page.goto(href);
    await page.waitForLoadState('networkidle');
    const poster = new URL((await page.locator('video').getAttribute('poster')) ?? '', baseURL()).pathname;
    expect(poster).toMatch(/^\/thumbs\/.+\/poster\.jpg\.1280w\.webp$/);
    expect(new URL((await page.locator('head link[rel="preload"][as="image"]').getAttribute('href')) ?? '').pathname).toBe(poster);
    expect(posterRequests).toEqual([poster]);
    expect(images.get(poster)).toBe('200 image/webp');
    await context.close();
  });

  it('shows what this browser keeps (a like given here, the autoplay choice) once hydrated, without a mismatch', async () => {
    const { context, page } = await newVisitor(browser);
    await answered(context);
    await keepServerElement(context);
    const { problems } = watchPage(page);
    await page.goto('/');
    const href = (await page.locator('.video-grid .video-card__link').first().getAttribute('href')) ?? '/video/1';
    const id = /\/video\/(\d+)/.exec(href)?.[1];
    await page.evaluate((videoId) => {
      window.localStorage.setItem(`liked_${videoId}`, 'true');
      window.localStorage.setItem('autoplay_next', 'false');
    }, id);

    const served = await (await page.request.get(href)).text();
    expect(served).toContain('aria-pressed="false"'); // the server cannot know

    await page.goto(href);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.stat--like').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('switch', { name: 'Autoplay' }).isChecked()).toBe(false);
    expect(await serverElementKept(page)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws the 18+ gate over a first visit, in the server’s HTML too, and not once the visitor has answered', async () => {
    const { context, page } = await newVisitor(browser, { ageConfirmed: false });
    const { problems } = watchPage(page);
    const served = async () => (await page.request.get('/')).text();

    const first = await served();
    expect(first).toContain('class="age-gate"');
    expect(first).toContain('<div class="app" inert="">');
    expect(first).toContain('video-card'); // the page is there, behind the gate

    // The visitor answers before the app has loaded (its entry module held back until then): the page's first
    // script holds the click, loads the app and clicks again once the app has hydrated the page.
    const app = await holdApp(context);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const gate = page.getByRole('dialog', { name: /is an adult website/ });
    await gate.getByRole('button', { name: 'I am 18 or older – Enter' }).click();
    await expect.poll(app.held).toBe(1);
    expect(await gate.isVisible()).toBe(true);
    app.release();
    await gate.waitFor({ state: 'hidden' });

    const after = await served();
    expect(after).not.toContain('class="age-gate"');
    expect(after).not.toContain('inert=""');
    await page.reload();
    await page.locator('.video-grid').waitFor();
    expect(await gate.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('renders a member’s page with their session, in an answer no cache keeps, and never hands it to a guest', async () => {
    const { context, page } = await newVisitor(browser);
    const { problems } = watchPage(page);
    await answered(context);
    const name = `Rendered ${Date.now().toString(36)}`;
    await registerMember(page, name);

    const mine = await page.request.get('/');
    expect(mine.headers()['cache-control']).toBe('private, no-store');
    expect(await mine.text()).toContain(name);

    const guest = await browser.newContext({ baseURL: baseURL() });
    const theirs = await guest.request.get('/');
    expect(await theirs.text()).not.toContain(name);
    expect(theirs.headers()['cache-control']).toBe('no-cache');
    await guest.close();

    await page.goto('/');
    await page.locator('.user-menu__name', { hasText: name }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    await context.close();
  });
});
