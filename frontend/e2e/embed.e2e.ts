import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, launchBrowser, newVisitor, screenshot } from './support/browser';

/**
 * Another site: a page at http://localhost:{port} (the app under test is http://127.0.0.1:{port}, so another
 * origin and another site) whose body is whatever HTML the test puts at a path.
 */
async function startOtherSite() {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const html = pages.get(req.url ?? '');
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    /** Puts a blog post around `body` at `path`. */
    page: (path: string, body: string) => pages.set(path, `<!doctype html><title>A blog</title><h1>My favourite clip</h1>${body}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's WCAG 2.x A and AA rules on the page as it stands (as accessibility.e2e.ts runs them). */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    type Found = { id: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Found[] }> } }).axe;
    return (await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] })).violations;
  });
  return found.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** The frame of the page whose address starts with `prefix`, once the page has one. */
async function frameOf(page: Page, prefix: string): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(prefix)), { timeout: 15_000 }).toBe(true);
  return page.frames().find((f) => f.url().startsWith(prefix)) as Frame;
}

describe('the embeddable player on another site', () => {
  let browser: Browser;
  let otherSite: Awaited<ReturnType<typeof startOtherSite>>;
  let videoId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    otherSite = await startOtherSite();
    // The longest demo clip: several segments, so that playback is seen moving on.
    const { data } = (await (await fetch(`${baseURL()}/api/videos?sort=longest&limit=1`)).json()) as { data: { id: number }[] };
    videoId = data[0].id;
  });
  afterAll(async () => {
    await browser?.close();
    await otherSite?.close();
  });

  it("plays inside another site's frame, pasted from the watch page's embed code, behind the 18+ gate", async () => {
    // The site's own visitor copies the embed code from the watch page.
    const { page: sharer, context: sharerContext } = await newVisitor(browser);
    await sharer.goto(`/video/${videoId}`);
    await sharer.locator('.watch-details__title').waitFor();
    await sharer.getByRole('button', { name: 'Link & embed' }).click();
    const code = await sharer.getByRole('textbox', { name: 'Embed code' }).inputValue();
    expect(code).toMatch(new RegExp(`^<iframe src="${baseURL()}/embed/${videoId}" width="640" height="360" `));
    await sharerContext.close();

    // A reader of the blog that pasted it, who has never been to the site.
    otherSite.page('/post', code);
    const { page, context, errors } = await newVisitor(browser, { ageConfirmed: false });
    const frameErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') frameErrors.push(message.text());
    });
    const embedResponse = page.waitForResponse((response) => new URL(response.url()).pathname === `/embed/${videoId}`);
    await page.goto(`${otherSite.origin}/post`);
    const headers = (await embedResponse).headers();
    expect(headers['content-security-policy']).toMatch(/frame-ancestors \*/);
    expect(headers['x-frame-options']).toBeUndefined();

    const frame = await frameOf(page, `${baseURL()}/embed/`);
    const gate = frame.getByRole('dialog', { name: /is an adult website/ });
    await gate.waitFor({ timeout: 30_000 });
    // No site chrome around the player, and the way back to the watch page in a new tab.
    expect(await frame.locator('header, footer, nav').count()).toBe(0);
    const back = frame.getByRole('link', { name: /^Watch on / });
    expect(await back.getAttribute('href')).toBe(`/video/${videoId}`);
    expect(await back.getAttribute('target')).toBe('_blank');
    expect(await frame.getByRole('button', { name: 'Next video' }).count()).toBe(0);
    await screenshot(page, 'embed-age-gate');

    await gate.getByRole('button', { name: 'I am 18 or older – Enter' }).click();
    await frame.getByRole('button', { name: 'Play', exact: true }).click();
    const video = frame.locator('video');
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(1);
    expect(await video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'embed-playing');

    expect(errors).toEqual([]);
    expect(frameErrors.filter((text) => /Refused|Content Security Policy|frame/i.test(text))).toEqual([]);
    await context.close();
  });

  it('passes the accessibility rules, and fits a 360 px phone, with Link & embed open and in the embed', async () => {
    const { page, context } = await newVisitor(browser, { viewport: 'small', bypassCSP: true });
    await page.goto(`/video/${videoId}`);
    await page.locator('.watch-details__title').waitFor();
    await page.getByRole('button', { name: 'Link & embed' }).click();
    await page.getByRole('button', { name: 'Copy embed code' }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'share-menu-phone');
    expect(await violations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    await page.goto(`/embed/${videoId}`);
    await page.getByRole('link', { name: /^Watch on / }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it("refuses to show the watch page, or any other page of the site, in another site's frame", async () => {
    otherSite.page('/stolen', `<iframe src="${baseURL()}/video/${videoId}" width="640" height="360"></iframe>`);
    const { page, context } = await newVisitor(browser);
    const watchResponse = page.waitForResponse((response) => new URL(response.url()).pathname === `/video/${videoId}`);
    await page.goto(`${otherSite.origin}/stolen`);
    const headers = (await watchResponse).headers();
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);

    // Chromium refuses the document: the frame is left on its error page, never the watch page.
    const frame = () => page.frames().find((f) => f !== page.mainFrame());
    await expect.poll(() => frame()?.url(), { timeout: 15_000 }).toMatch(/^chrome-error:/);
    expect(await frame()?.locator('.watch-details__title, #root').count()).toBe(0);
    await context.close();
  });
});
