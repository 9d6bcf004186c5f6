import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, launchBrowser, newVisitor, registerMember } from './support/browser';
import { asAdmin } from './support/admin-api';

/*
 * Hidden topics (docs/decisions.md › "Hidden topics"): a guest hides a performer on their page (kept in the
 * browser's cookie), a member a category (kept in their account), and their videos leave the listings and the
 * related row, in the pages the server draws as in the app's own navigations.
 */

interface Card {
  id: number;
}

const api = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${baseURL()}${path}`);
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return (await res.json()) as T;
};

const idsOf = async (query: string): Promise<number[]> => (await api<{ data: Card[] }>(`/api/videos?limit=60&${query}`)).data.map((card) => card.id);


type Taxa = { categories: { id: string; name: string }[]; performers: { id: string; name: string }[] };

/**
 * A new category or performer on one published video, and a new category shared by that video and another: the
 * topic the test hides, its video, and a video whose related row shows it (whatever the other test files did to
 * the small demo catalogue before this one runs).
 */
async function pickTopic(kind: 'categories' | 'performers'): Promise<{ id: string; name: string; theirs: number[]; watch: number }> {
  const [theirs, watch] = await idsOf('sort=newest');
  if (theirs === undefined || watch === undefined) throw new Error('the test catalogue has fewer than two published videos');
  const stamp = Date.now().toString(36);
  const topic = await asAdmin<{ id: string; name: string }>(`/api/${kind}`, { method: 'POST', body: { name: `Hidden ${kind} ${stamp}` } });
  const link = await asAdmin<{ id: string; name: string }>('/api/categories', { method: 'POST', body: { name: `Hidden link ${stamp}` } });
  for (const [id, added] of [[theirs, [topic]], [watch, []]] as const) {
    const video = await api<Taxa & { id: number }>(`/api/videos/${id}`);
    const taxa = { categories: [...video.categories, link], performers: video.performers };
    taxa[kind] = [...taxa[kind], ...added];
    await asAdmin('/api/admin/update-video', { method: 'POST', body: { id, categories: taxa.categories, performers: taxa.performers } });
  }
  const related = await api<{ data: Card[] }>(`/api/videos/${watch}/related`);
  if (!related.data.some((card) => card.id === theirs)) throw new Error(`video ${theirs} is not in video ${watch}'s related row`);
  return { id: topic.id, name: topic.name, theirs: [theirs], watch };
}

/** The videos the page links to, by id (its grids and rows). */
const linkedVideos = (page: Page, scope = 'main') =>
  page.locator(`${scope} .video-card__link`).evaluateAll((links) =>
    links.map((link) => Number(/^\/video\/(\d+)/.exec(link.getAttribute('href') ?? '')?.[1])),
  );

/** The videos linked in a page's HTML as the server sent it (no script run). */
const linkedInHtml = (html: string) => [...html.matchAll(/class="video-card__link"[^>]*href="\/video\/(\d+)"/g)].map((match) => Number(match[1]));

/**
 * Home has none of these videos: reached by the header's link (the app's own navigation), then reloaded (the
 * server's page, its HTML checked before any script runs, then as hydrated).
 */
async function expectGoneFromHome(page: Page, ids: number[]): Promise<void> {
  const none = (found: number[]) => expect(found.filter((id) => ids.includes(id))).toEqual([]);
  await page.locator('.site-header__name').click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.locator('.video-grid').waitFor();
  await page.waitForLoadState('networkidle');
  none(await linkedVideos(page));
  const home = await page.reload();
  none(linkedInHtml((await home?.text()) ?? ''));
  await page.locator('.video-grid').waitFor();
  await page.waitForLoadState('networkidle');
  none(await linkedVideos(page));
}

/** Console errors and warnings (React's hydration mismatches among them) and uncaught errors. */
function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

describe('hidden topics', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a guest hides a performer: gone from home and a related row, after a reload too; back once unhidden on the settings page', async () => {
    const performer = await pickTopic('performers');
    const { page, context } = await newVisitor(browser);
    await context.addCookies([{ name: 'age_confirmed', value: 'true', url: baseURL() }]);
    const problems = problemsOf(page);

    // Before: the performer's videos are on home.
    await page.goto('/');
    await page.locator('.video-grid').waitFor();
    expect((await linkedVideos(page)).some((id) => performer.theirs.includes(id))).toBe(true);

    await page.goto(`/performers/${performer.id}`);
    const hide = page.getByRole('button', { name: 'Hide this performer' });
    await expect.poll(() => hide.getAttribute('aria-pressed')).toBe('false');
    await hide.click();
    await expect.poll(() => hide.getAttribute('aria-pressed')).toBe('true');
    await page.getByText('Videos with this performer are hidden').waitFor();
    const cookie = (await context.cookies()).find((entry) => entry.name === 'hidden_topics');
    expect(decodeURIComponent(cookie?.value ?? '')).toBe(`performer:${performer.id}`);

    // Home, through the app's own navigation, then drawn by the server for this cookie.
    await expectGoneFromHome(page, performer.theirs);

    // A watch page whose related row showed one of theirs: not any more, drawn by the server or not.
    const watch = await page.goto(`/video/${performer.watch}`);
    expect(linkedInHtml((await watch?.text()) ?? '').filter((id) => performer.theirs.includes(id))).toEqual([]);
    await page.locator('.watch-details__title').waitFor();
    await page.waitForLoadState('networkidle');
    expect((await linkedVideos(page, '.related')).filter((id) => performer.theirs.includes(id))).toEqual([]);

    // Unhidden on the settings page (from the user's own way there: the note's link), they are back.
    await page.goto(`/performers/${performer.id}`);
    await page.getByRole('link', { name: 'Your hidden topics' }).click();
    await page.waitForURL((url) => url.pathname === '/me/hidden');
    const performers = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Performers' }) });
    await performers.getByText(performer.name, { exact: true }).first().waitFor();
    await performers.getByRole('button', { name: `Unhide ${performer.name}` }).click();
    await performers.getByText('No performer is hidden.').waitFor();
    expect((await context.cookies()).find((entry) => entry.name === 'hidden_topics')).toBeUndefined();
    await page.goto('/');
    await page.locator('.video-grid').waitFor();
    expect((await linkedVideos(page)).some((id) => performer.theirs.includes(id))).toBe(true);
    await page.goto(`/video/${performer.watch}`);
    await page.locator('.related .video-card__link').first().waitFor();
    expect((await linkedVideos(page, '.related')).some((id) => performer.theirs.includes(id))).toBe(true);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('a member hides a category: gone from home, after a reload too (the server’s page is theirs)', async () => {
    const category = await pickTopic('categories');
    const { page, context } = await newVisitor(browser);
    await context.addCookies([{ name: 'age_confirmed', value: 'true', url: baseURL() }]);
    const problems = problemsOf(page);
    await registerMember(page, 'Hiding Hank');

    await page.goto(`/categories/${category.id}`);
    const hide = page.getByRole('button', { name: 'Hide this category' });
    await expect.poll(() => hide.getAttribute('aria-pressed')).toBe('false');
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/api/me/hidden')) puts.push(request.postData() ?? '');
    });
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/me/hidden') && response.request().method() === 'PUT');
    await hide.click();
    expect((await saved).status()).toBe(200);
    expect(puts).toEqual([JSON.stringify({ categories: [category.id], performers: [], tags: [] })]);
    await expect.poll(() => hide.getAttribute('aria-pressed')).toBe('true');
    // Kept with the account, not in the browser; the page's own listing, read again, leaves them out too.
    expect((await context.cookies()).find((entry) => entry.name === 'hidden_topics')).toBeUndefined();
    await page.getByText('This category is hidden, so its videos are not shown here.').waitFor();

    // Home, after the guest above has read it too: a member's reads are never answered with what guests were.
    await expectGoneFromHome(page, category.theirs);

    expect(puts).toHaveLength(1);

    // The settings page names it, from the account.
    await page.goto('/me/hidden');
    const categories = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Categories' }) });
    await categories.getByRole('button', { name: `Unhide ${category.name}` }).waitFor();

    expect(problems).toEqual([]);
    await context.close();
  });
});
