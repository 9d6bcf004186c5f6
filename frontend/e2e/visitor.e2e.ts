import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newVisitor, screenshot } from './support/browser';
import { asAdmin } from './support/admin-api';

/** Counts the HLS media segments the page fetched (the playlists name them *.ts). */
function countSegments(page: Page) {
  const segments = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.ok() && url.pathname.endsWith('.ts')) segments.add(url.pathname);
  });
  return segments;
}


/** HTMLMediaElement.HAVE_CURRENT_DATA: the first frame is decoded. */
const HTMLMediaElementHaveCurrentData = 2;

const currentTime = (page: Page) => page.locator('video').first().evaluate((video: HTMLVideoElement) => video.currentTime);

/** Opens the longest video (several segments long, whatever other test files uploaded meanwhile). */
async function openFirstVideo(page: Page): Promise<string> {
  await page.goto('/?sort=longest');
  const card = page.locator('.video-grid .video-card__link').first();
  await card.waitFor();
  await card.click();
  await page.waitForURL(/\/video\/\d+/);
  await page.locator('.watch-details__title').waitFor();
  return new URL(page.url()).pathname;
}

describe('a visitor', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('answers the 18+ gate once, and it stays answered on this device', async () => {
    const { page, context } = await newVisitor(browser, { ageConfirmed: false });
    await page.goto('/');
    const gate = page.getByRole('dialog', { name: /is an adult website/ });
    await gate.waitFor();
    await screenshot(page, 'age-gate-desktop');
    await gate.getByRole('button', { name: 'I am 18 or older – Enter' }).click();
    await expect(gate.isVisible()).resolves.toBe(false);
    await page.reload();
    await page.locator('.video-grid').waitFor();
    expect(await page.getByRole('dialog', { name: /is an adult website/ }).count()).toBe(0);
    await context.close();
  });

  it('plays a demo video: time advances over several HLS segments, the seek bar previews, Next moves on', async () => {
    const { page, context, errors } = await newVisitor(browser);
    const segments = countSegments(page);
    const scripts: string[] = [];
    const sprites: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
      if (/\/sprite-\d+\./.test(response.url())) sprites.push(`${response.status()} ${response.headers()['content-type']} ${new URL(response.url()).pathname}`);
    });
    const first = await openFirstVideo(page);

    // Before Play the page holds the first frame and one segment, no more (docs/web-client.md › "First frame").
    await expect
      .poll(() => page.locator('video').first().evaluate((video: HTMLVideoElement) => video.readyState), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(HTMLMediaElementHaveCurrentData);
    await page.waitForTimeout(1500);
    expect(segments.size).toBe(1);

    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => currentTime(page), { timeout: 30_000 }).toBeGreaterThan(3);
    expect(segments.size).toBeGreaterThan(1);
    // Played through hls.js (Media Source Extensions), not the browser's own HLS.
    expect(scripts.some((script) => /\/hls\.light(?:\.min)?-[\w-]+\.js$/.test(script))).toBe(true);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    // Hovering the seek bar shows the storyboard tile for that point of the video.
    const seek = page.getByRole('slider', { name: 'Seek' });
    const box = await seek.boundingBox();
    if (!box) throw new Error('the seek bar is not visible');
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    const tile = page.getByTestId('storyboard-tile');
    await tile.waitFor({ timeout: 10_000 });
    // The sprite's WebP copy, at the sprite's own size (the tile's coordinates hold).
    expect(await tile.evaluate((node) => getComputedStyle(node).backgroundImage)).toMatch(/sprite-\d+\.jpg\.webp"\)$/);
    await expect.poll(() => sprites.length).toBeGreaterThan(0);
    expect(sprites.every((line) => /^200 image\/webp \/thumbs\/.+\/sprite-\d+\.jpg\.webp$/.test(line))).toBe(true);

    await page.getByRole('button', { name: 'Next video' }).click();
    await page.waitForURL((url) => /^\/video\/\d+$/.test(url.pathname) && url.pathname !== first);
    await page.locator('.watch-details__title').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('drives the player from the keyboard and keeps its speed and volume for the next video', async () => {
    const { page, context, errors } = await newVisitor(browser);
    await openFirstVideo(page);
    const video = page.locator('video').first();
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.duration), { timeout: 30_000 }).toBeGreaterThan(4);

    await page.getByRole('combobox', { name: 'Playback speed' }).selectOption('1.5');
    expect(await video.evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(1.5);
    // ↓ twice: the volume down by a fifth; 5: halfway through.
    await page.locator('body').press('ArrowDown');
    await page.locator('body').press('ArrowDown');
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.volume)).toBe(0.8);
    await page.locator('body').press('5');
    const half = await video.evaluate((element: HTMLVideoElement) => [element.currentTime, element.duration / 2]);
    expect(Math.abs(half[0] - half[1])).toBeLessThan(0.5);

    // ? lists the keys, in a dialog that Escape closes.
    await page.locator('body').press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.textContent()).toContain('Jump to 0 %–90 % of the video');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // T: theater mode, the player as wide as the window (its black band from edge to edge).
    const playerWidth = () => page.locator('.player__video').evaluate((element) => element.getBoundingClientRect().width);
    const normal = await playerWidth();
    await page.locator('body').press('t');
    await page.locator('article.watch--theater').waitFor();
    expect(await page.getByRole('button', { name: 'Theater mode' }).getAttribute('aria-pressed')).toBe('true');
    expect(await playerWidth()).toBeGreaterThanOrEqual(normal);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Shift+N: the next video, at the same speed and volume, still in theater mode.
    const before = new URL(page.url()).pathname;
    await page.locator('body').press('Shift+N');
    await page.waitForURL((url) => /^\/video\/\d+$/.test(url.pathname) && url.pathname !== before);
    await page.locator('.watch-details__title').waitFor();
    await expect.poll(() => page.locator('video').first().evaluate((element: HTMLVideoElement) => [element.playbackRate, element.volume])).toEqual([1.5, 0.8]);
    expect(await page.getByRole('combobox', { name: 'Playback speed' }).inputValue()).toBe('1.5');
    await page.locator('article.watch--theater').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('finds a video started in this browser on the home page’s Continue watching, until it is taken out', async () => {
    const { page, context, errors } = await newVisitor(browser);
    const path = await openFirstVideo(page);
    const title = ((await page.locator('.watch-details__title').textContent()) ?? '').trim();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => currentTime(page), { timeout: 30_000 }).toBeGreaterThan(2);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const stopped = Math.floor(await currentTime(page));

    await page.goto('/');
    const row = page.getByRole('region', { name: 'Continue watching' });
    const card = row.getByRole('link', { name: title, exact: true });
    await card.waitFor();
    expect(await card.getAttribute('href')).toBe(`${path}?t=${stopped}`);
    expect(await row.locator('.video-card').count()).toBe(1);
    await row.getByRole('button', { name: `Remove ${title} from Continue watching` }).click();
    await expect.poll(() => row.count()).toBe(0);
    await page.reload();
    await page.locator('.video-grid').waitFor();
    expect(await page.getByRole('region', { name: 'Continue watching' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is sent back to the video after logging in from a prompt', async () => {
    const { page, context } = await newVisitor(browser);
    await page.goto('/register');
    // A member to log in as; then a fresh session as a visitor.
    const email = `returning-${Date.now()}@e2e.test`;
    await page.getByLabel('Display name').fill('Returning');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a member password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.locator('.user-menu__name').waitFor();
    await context.clearCookies();

    const path = await openFirstVideo(page);
    await page.goto(`${path}?t=5`);
    await page.getByRole('button', { name: 'Bookmark' }).click();
    const prompt = page.getByRole('link', { name: 'Log in to bookmark your favorite videos and more' });
    await prompt.waitFor();
    // The specification's form: the path and query as they are, without the leading slash.
    expect(await prompt.getAttribute('href')).toBe(`/login?ref=${path.slice(1)}?t=5`);
    await prompt.click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a member password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === path && url.search === '?t=5');
    await context.close();
  });

  it('browses: search, a category page, and the hover clip of a card', async () => {
    const { page, context } = await newVisitor(browser);
    await page.goto('/categories');
    const category = page.getByRole('list', { name: 'Categories' }).getByRole('link').first();
    await category.click();
    await page.waitForURL(/\/categories\/[^/]+$/);
    await page.locator('.video-grid .video-card').first().waitFor();

    const title = (await page.locator('.video-card__title').first().textContent()) ?? '';
    const word = title.split(/\s+/).find((w) => w.length > 3) ?? title;
    await page.getByRole('searchbox', { name: 'Search videos' }).fill(word);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=/);
    await page.getByRole('heading', { level: 1, name: `Results for “${word}”` }).waitFor();
    // The previous page's cards stay, dimmed, until the results arrive: hover one of the results.
    await page.locator('.video-grid[aria-busy="false"] .video-card').first().waitFor();

    await page.locator('.video-grid .video-card').first().hover();
    const clip = page.getByTestId('hover-preview');
    await clip.waitFor({ timeout: 10_000 });
    await expect.poll(() => clip.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 15_000 }).toBeGreaterThan(0);
    await context.close();
  });

  it('filters a listing: a choice narrows the grid to what the API counts, its chip and Clear all undo it', async () => {
    const { page, context } = await newVisitor(browser);
    const listing = async (query: string) => (await (await page.request.get(`/api/videos?limit=60&${query}`)).json()) as { total: number; data: { duration: number | null }[] };
    const all = await listing('');
    const cards = () => page.locator('.video-grid[aria-busy="false"] .video-card').count();
    await page.goto('/?sort=longest');
    await page.locator('.video-grid .video-card').first().waitFor();

    // Every demo clip is under 10 minutes and none has a 4K rendition.
    await page.getByText('Filters', { exact: true }).click();
    await page.getByRole('group', { name: 'Length' }).getByRole('link', { name: 'Under 10 min' }).click();
    await page.waitForURL((url) => url.search === '?maxDuration=599&sort=longest');
    await page.getByRole('link', { name: 'Remove filter: Under 10 min' }).waitFor();
    await expect.poll(cards).toBe(Math.min((await listing('maxDuration=599')).total, 24));
    await page.getByRole('group', { name: 'Quality' }).getByRole('link', { name: '4K' }).click();
    await page.waitForURL((url) => url.search === '?maxDuration=599&quality=4k&sort=longest');
    await page.getByText('No videos match these filters.').waitFor();
    await page.getByRole('link', { name: 'Clear all' }).click();
    await page.waitForURL((url) => url.search === '?sort=longest');
    await expect.poll(cards).toBe(Math.min(all.total, 24));
    expect(await page.getByRole('list', { name: 'Applied filters' }).count()).toBe(0);

    // A range that splits the catalogue: up to the shortest clip's length leaves the longer ones out.
    const shortest = Math.min(...all.data.flatMap((video) => (video.duration ? [video.duration] : [])));
    const narrowed = (await listing(`maxDuration=${shortest}`)).total;
    expect(narrowed, 'the demo clips have different lengths').toBeLessThan(all.total);
    expect(narrowed).toBeGreaterThan(0);
    await page.goto(`/?maxDuration=${shortest}`);
    await page.getByRole('link', { name: `Remove filter: At most 0:${String(shortest).padStart(2, '0')}` }).waitFor();
    await expect.poll(cards).toBe(narrowed);
    await context.close();
  });

  it('opens a tag under the player and finds the video on the tag’s page, also by a synonym’s address', async () => {
    // A tag of the test's own (named, so created on save) on a video, and a synonym of it: whatever the demo has.
    const [{ id }] = (await asAdmin<{ data: { id: number }[] }>('/api/videos?limit=1')).data;
    const video = await asAdmin<{ tags: { id: string; name: string }[] }>(`/api/videos/${id}`);
    await asAdmin('/api/admin/update-video', { method: 'POST', body: { id, tags: [...video.tags, 'Visitor E2E Tag'] } });
    await asAdmin('/api/admin/tag-synonyms', { method: 'POST', body: { alias: 'visitor-e2e-alias', tag: 'visitor-e2e-tag' } });

    const { page, context, errors } = await newVisitor(browser);
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') logged.push(message.text());
    });
    await page.goto(`/video/${id}`);
    await page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: 'Visitor E2E Tag' }).click();
    await page.waitForURL((url) => url.pathname === '/tags/visitor-e2e-tag');
    await page.getByRole('heading', { level: 1, name: 'Newest videos tagged Visitor E2E Tag' }).waitFor();
    await page.locator(`.video-grid a.video-card__link[href="/video/${id}"]`).waitFor();
    expect(await page.title()).toBe('Visitor E2E Tag videos');
    await screenshot(page, 'tag-desktop');
    await page.getByRole('link', { name: 'All tags' }).click();
    await page.waitForURL((url) => url.pathname === '/tags');
    await page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: /^Visitor E2E Tag/ }).waitFor();
    await screenshot(page, 'tags-desktop');

    // The synonym's address, loaded whole: the server draws the tag's page, and the browser moves to its address.
    await page.goto('/tags/visitor-e2e-alias?sort=longest');
    await page.waitForURL((url) => url.pathname === '/tags/visitor-e2e-tag' && url.search === '?sort=longest');
    await page.getByRole('heading', { level: 1, name: 'Longest videos tagged Visitor E2E Tag' }).waitFor();
    await page.locator(`.video-grid a.video-card__link[href="/video/${id}"]`).waitFor();
    // For crawlers, the document names the tag's own address as canonical (the browser left that head behind).
    const html = await (await page.request.get('/tags/visitor-e2e-alias?sort=longest')).text();
    expect(html).toMatch(/<link data-server-head rel="canonical" href="[^"]*\/tags\/visitor-e2e-tag\?sort=longest">/);

    // An unknown tag is "Page not found".
    await page.goto('/tags/no-such-e2e-tag');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(errors).toEqual([]);
    // The 404 of the unknown tag's read is the browser's own console line; nothing else (no hydration mismatch).
    expect(logged.filter((text) => !/status of 404/.test(text))).toEqual([]);
    await context.close();
  });

  it('comes back from a video to the same place in the listing, on the card it opened', async () => {
    const { page, context } = await newVisitor(browser, { viewport: 'phone' });
    await page.goto('/?sort=longest');
    const cards = page.locator('.video-grid .video-card__link');
    await cards.last().waitFor();
    const last = cards.last();
    await last.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const href = await last.getAttribute('href');
    // Where the card sits on the screen. Not the page's scroll offset: coming back, a Continue watching row may
    // arrive above the grid (this browser has just started the video), and the browser's scroll anchoring then
    // moves the offset by the row's height so that what the visitor was looking at stays where it was.
    const onScreen = () =>
      page.evaluate((link) => document.querySelector(`.video-grid a[href="${link}"]`)?.getBoundingClientRect().top ?? null, href);
    const seen = await onScreen();
    expect(seen).not.toBeNull();
    await last.click();
    await page.waitForURL(`**${href}`);
    await page.locator('.watch-details__title').waitFor();

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(onScreen).toBeCloseTo(seen as number, -1);
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLAnchorElement | null)?.getAttribute('href')))
      .toBe(href);
    await context.close();
  });

  it.each(['phone', 'desktop'] as const)('is photographed on the home and watch pages at %s width', async (viewport) => {
    const { page, context } = await newVisitor(browser, { viewport });
    await page.goto('/');
    await page.locator('.video-grid .video-card').first().waitFor();
    await screenshot(page, `home-${viewport}`);
    await openFirstVideo(page);
    await page.locator('.related-videos, .related').first().waitFor().catch(() => undefined);
    await screenshot(page, `watch-${viewport}`);
    await context.close();
  });
});
