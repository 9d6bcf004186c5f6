import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, firstTaxonPaths, firstVideoPath, launchBrowser, logInAsAdmin, newVisitor, registerMember, visitEach } from './support/browser';

/** The W3C Nu Html Checker's jar, from the npm registry's vnu-jar; it runs on the machine's Java. */
const VNU_JAR = String(createRequire(import.meta.url)('vnu-jar'));

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** Every error the Nu Html Checker finds in these documents, as "file:line message". */
function vnuErrors(documents: Record<string, string>): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'vnu-'));
  try {
    const files = Object.entries(documents).map(([name, html]) => {
      const file = path.join(dir, `${name.replace(/[^a-z0-9-]+/gi, '_')}.html`);
      writeFileSync(file, html);
      return file;
    });
    const run = spawnSync('java', ['-jar', VNU_JAR, '--format', 'json', '--exit-zero-always', ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.error) throw new Error(`The Nu Html Checker needs Java on the PATH (Debian's default-jre-headless): ${run.error.message}`);
    const { messages } = JSON.parse(run.stderr) as { messages: VnuMessage[] };
    return messages
      .filter((m) => m.type !== 'info')
      .map((m) => `${path.basename(m.url ?? '')}:${m.lastLine ?? '?'} ${m.message}${m.extract ? ` [${m.extract.trim()}]` : ''}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The document as the browser holds it now (after the app hydrated or drew it), with its doctype. */
const hydratedHtml = (page: Page) => page.evaluate(() => `<!DOCTYPE html>\n${document.documentElement.outerHTML}`);

/** The HTML `<title>` elements of the document (an icon's SVG `<title>` is not one). */
const htmlTitles = (page: Page) =>
  page.evaluate(() => Array.from(document.getElementsByTagName('title')).filter((t) => t.namespaceURI === 'http://www.w3.org/1999/xhtml').map((t) => t.textContent));


/**
 * What outside validators see (issue #30): every kind of page, as the server sends it and as the browser holds it
 * once the app has hydrated (or drawn) it, checked by the Nu Html Checker with no error allowed, and one
 * `<title>` per document.
 */
describe('valid pages (the W3C Nu Html Checker)', () => {
  let browser: Browser;
  const served: Record<string, string> = {};
  const hydrated: Record<string, string> = {};
  const titles: Record<string, (string | null)[]> = {};

  /** Takes the page at `path` as the server sends it (with this visitor's cookies) and as the browser holds it. */
  async function take(kind: string, context: BrowserContext, page: Page, url: string, ready = 'main h1') {
    const res = await context.request.get(url);
    expect(res.status(), `${kind} ${url}`).toBe(200);
    served[kind] = await res.text();
    await page.goto(url);
    await page.locator(ready).first().waitFor();
    await page.waitForLoadState('networkidle');
    hydrated[kind] = await hydratedHtml(page);
    titles[kind] = await htmlTitles(page);
  }

  beforeAll(async () => {
    browser = await launchBrowser();

    // A guest who has answered the 18+ gate (its cookie, as the server learns it).
    const guest = await newVisitor(browser);
    await guest.context.addCookies([{ name: 'age_confirmed', value: 'true', url: baseURL() }]);
    const { page, context } = guest;
    const video = await firstVideoPath(page);
    const [category, performer] = await firstTaxonPaths(page);
    const pages: [string, string, string?][] = [
      ['home', '/'],
      ['home-page-2-sorted', '/?sort=most-viewed'],
      ['categories', '/categories'],
      ['category', category],
      ['performers', '/performers'],
      ['performer', performer],
      ['tags', '/tags'],
      ['search', '/search?q=session'],
      ['search-empty', '/search'],
      ['watch', video],
      ['embed', video.replace('/video/', '/embed/'), 'video'],
      ['terms', '/terms'],
      ['2257', '/2257'],
      ['content-removal', '/content-removal'],
      ['login', '/login'],
      ['register', '/register'],
      ['hidden-topics', '/me/hidden'],
      ['not-found', '/no-such-page'],
    ];
    const byUrl: Record<string, [kind: string, ready?: string]> = Object.fromEntries(pages.map(([kind, url, ready]) => [url, [kind, ready]]));
    await visitEach(context, Object.keys(byUrl), (tab, url) => take(byUrl[url][0], context, tab, url, byUrl[url][1]));
    await context.close();

    // A first visit: the 18+ gate over the home page.
    const first = await newVisitor(browser, { ageConfirmed: false });
    await take('age-gate', first.context, first.page, '/', '[role="dialog"] h2');
    await first.context.close();

    // A member's pages, then an admin's (the edit page is where a duplicate id was found).
    const member = await newVisitor(browser);
    await registerMember(member.page, 'Validity Member');
    await visitEach(member.context, ['/me/bookmarks', '/me/history', '/me/account', '/me/hidden', '/playlists'], (tab, url) => take(`member${url}`, member.context, tab, url));
    await member.context.clearCookies();
    await logInAsAdmin(member.page);
    const adminPages = ['/admin', '/admin/videos', video.replace('/video/', '/admin/videos/'), '/admin/removals', '/admin/taxonomy', '/admin/ads'];
    await visitEach(member.context, adminPages, (tab, url) => take(`admin${url}`, member.context, tab, url));
    await member.context.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('finds no error in any page as the server sends it', () => {
    expect(Object.keys(served).length).toBeGreaterThanOrEqual(25);
    expect(vnuErrors(served)).toEqual([]);
  });

  it('finds no error in any page once the app has hydrated or drawn it', () => {
    expect(vnuErrors(hydrated)).toEqual([]);
  });

  it('leaves one title in every document after hydration, the page its own', () => {
    const counts = Object.fromEntries(Object.entries(titles).map(([kind, list]) => [kind, list.length]));
    expect(counts).toEqual(Object.fromEntries(Object.keys(titles).map((kind) => [kind, 1])));
    expect(titles.terms).toEqual(['Terms of service']);
    expect(titles['member/me/account']).toEqual(['Your account']);
  });

  it('is a checker that finds errors (a duplicate id and a second title are refused)', () => {
    const errors = vnuErrors({
      broken: '<!DOCTYPE html><html lang="en"><head><title>a</title><title>b</title></head><body><p id="x"></p><p id="x"></p></body></html>',
    });
    expect(errors.some((e) => /Duplicate ID/.test(e))).toBe(true);
    expect(errors.some((e) => /title/.test(e))).toBe(true);
  });
});
