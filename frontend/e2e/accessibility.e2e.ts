import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstTaxonPaths, firstVideoPath, launchBrowser, logInAsAdmin, newVisitor, registerMember, visitEach } from './support/browser';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Beside WCAG's A and AA rules: headings in order with one h1 (axe's best practices), and names that hold their
 * visible text (WCAG 2.5.3, which axe runs only when asked by name).
 */
const STRUCTURE_RULES = ['heading-order', 'page-has-heading-one', 'label-content-name-mismatch'];

/** Runs axe-core's WCAG 2.0/2.1 A and AA rules and STRUCTURE_RULES on the page as it stands; returns what fails, readably. */
async function violations(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async (rules) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe;
    const wcag = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    const structure = await axe.run(document, { runOnly: { type: 'rule', values: rules } });
    return [...wcag.violations, ...structure.violations];
  }, STRUCTURE_RULES);
  return found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

const VISITOR_PAGES = ['/', '/categories', '/performers', '/tags', '/search?q=session', '/login', '/register', '/terms', '/2257', '/content-removal', '/me/hidden'];
const MEMBER_PAGES = ['/me/bookmarks', '/me/watch-later', '/me/history', '/me/likes', '/me/following', '/me/following/videos', '/me/account', '/me/hidden', '/playlists'];
const ADMIN_PAGES = ['/admin', '/admin/videos', '/admin/upload', '/admin/jobs', '/admin/taxonomy', '/admin/ads', '/admin/removals', '/admin/removals?state=closed'];

/** How far the page reaches past the right edge of the window (0 when nothing makes it scroll sideways). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('accessibility (axe-core, WCAG 2.1 A and AA)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('finds nothing on the 18+ gate', async () => {
    const { page, context } = await newVisitor(browser, { ageConfirmed: false, bypassCSP: true });
    await page.goto('/');
    await page.getByRole('dialog', { name: /is an adult website/ }).waitFor();
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it.each(['phone', 'desktop'] as const)("finds nothing on a visitor's pages at %s width", async (viewport) => {
    const { page, context } = await newVisitor(browser, { viewport, bypassCSP: true });
    const video = await firstVideoPath(page);
    const found = await visitEach(context, [...VISITOR_PAGES, ...(await firstTaxonPaths(page)), video], async (tab, path) => {
      await tab.goto(path);
      await tab.locator('main h1, main [role="heading"][aria-level="1"]').first().waitFor();
      return violations(tab);
    });
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, []])));
    await context.close();
  });

  it("finds nothing on a member's lists and an admin's pages", async () => {
    const { page, context } = await newVisitor(browser, { bypassCSP: true });
    await registerMember(page, 'Axe Member');
    const check = async (tab: Page, path: string) => {
      await tab.goto(path);
      await tab.locator('main h1').first().waitFor();
      return violations(tab);
    };
    const found = await visitEach(context, MEMBER_PAGES, check);

    await context.clearCookies();
    await logInAsAdmin(page);
    const video = (await firstVideoPath(page)).replace('/video/', '/admin/videos/');
    Object.assign(found, await visitEach(context, [...ADMIN_PAGES, video], check));
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, []])));
    await context.close();
  });

  it('lays out every page within a 360 px phone screen: nothing scrolls sideways', async () => {
    const { page, context } = await newVisitor(browser, { viewport: 'small' });
    const video = await firstVideoPath(page);
    const measure = async (tab: Page, path: string) => {
      await tab.goto(path);
      await tab.locator('main h1').first().waitFor();
      await tab.waitForLoadState('networkidle');
      return overflow(tab);
    };
    const found = await visitEach(context, [...VISITOR_PAGES, video], measure);
    await logInAsAdmin(page);
    // A playlist with a video, for its page (made through the API, as the watch page's dialog would).
    const playlist = await page.evaluate(async (videoId) => {
      const { user } = (await (await fetch('/api/auth/me')).json()) as { user: { id: string; user_metadata: { display_name: string } } };
      const res = await fetch('/api/playlists/create-playlist', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          video_id: videoId,
          title: `Phone check ${Date.now() % 100000}`,
          user_id: user.id,
          display_name: user.user_metadata.display_name,
        }),
      });
      return ((await res.json()) as { data?: { playlist_id: number } }).data?.playlist_id;
    }, Number(video.split('/').pop()));
    expect(playlist).toBeGreaterThan(0);
    Object.assign(found, await visitEach(context, [...MEMBER_PAGES, `/playlists/${playlist}`, ...ADMIN_PAGES, video.replace('/video/', '/admin/videos/')], measure));
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, 0])));
    await context.close();
  });
});
