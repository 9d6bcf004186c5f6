import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { ADMIN, SCREENSHOT_DIR, VIEWPORTS } from './constants';

/** Debian's Chromium, never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const baseURL = () => inject('baseURL');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

interface PageOptions {
  viewport?: keyof typeof VIEWPORTS;
  /** Whether the visitor has already answered the 18+ gate on this device (default: yes). */
  ageConfirmed?: boolean;
  /** Lets the test inject scripts (axe-core) despite the app's Content-Security-Policy. */
  bypassCSP?: boolean;
}

/** A fresh visitor (own cookies and storage) on the app under test. */
export async function newVisitor(browser: Browser, { viewport = 'desktop', ageConfirmed = true, bypassCSP = false }: PageOptions = {}) {
  const context: BrowserContext = await browser.newContext({ baseURL: baseURL(), viewport: VIEWPORTS[viewport], bypassCSP });
  if (ageConfirmed) await context.addInitScript(() => window.localStorage.setItem('age_confirmed', 'true'));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Saves a full-page screenshot as test-artifacts/screenshots/{name}.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = fileURLToPath(SCREENSHOT_DIR);
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${name}.png`;
  // Let lazy images and fonts settle so the picture shows the page as a visitor sees it.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Registers a new member through the sign-up page and waits until the session shows in the header. */
export async function registerMember(page: Page, name = 'E2E Member'): Promise<{ email: string; password: string }> {
  const email = `member-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@e2e.test`;
  const password = 'a member password';
  await page.goto('/register');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Display name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.locator('.user-menu__name', { hasText: name }).waitFor();
  return { email, password };
}

/** Logs in as the admin the app under test creates at start-up, and waits until the session shows in the header. */
export async function logInAsAdmin(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.locator('.user-menu__name').waitFor();
}

/** The watch page of the home page's first card. */
export async function firstVideoPath(page: Page): Promise<string> {
  await page.goto('/');
  const href = await page.locator('.video-grid .video-card__link').first().getAttribute('href');
  if (!href) throw new Error('no video on the home page');
  return href;
}

/** The first category's and performer's pages (their listings' cards are headed under the page's h1). */
export async function firstTaxonPaths(page: Page): Promise<string[]> {
  const paths: string[] = [];
  for (const kind of ['categories', 'performers']) {
    await page.goto(`/${kind}`);
    const href = await page.locator(`main a[href^="/${kind}/"]`).first().getAttribute('href');
    if (!href) throw new Error(`no ${kind} in the demo catalogue`);
    paths.push(href);
  }
  return paths;
}

/**
 * Visits every path in tabs of one context, `tabs` at a time (each tab takes the next path when it is done), and
 * returns each path's result. Each page still settles on its own (`visit` waits for it); the tabs overlap the
 * waits for the network to go quiet, which a visit after a visit spends idle.
 */
export async function visitEach<T>(context: BrowserContext, paths: string[], visit: (page: Page, path: string) => Promise<T>, tabs = 3): Promise<Record<string, T>> {
  const queue = [...paths];
  const found: Record<string, T> = {};
  await Promise.all(
    Array.from({ length: Math.min(tabs, queue.length) }, async () => {
      const page = await context.newPage();
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) found[path] = await visit(page, path);
      await page.close();
    }),
  );
  // In the order given, so that a failure lists the pages as the test names them.
  return Object.fromEntries(paths.map((path) => [path, found[path]]));
}
