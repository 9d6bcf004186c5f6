import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../src/lib/api/schema';
import { baseURL, launchBrowser, newVisitor, registerMember, screenshot } from './support/browser';
import { startVastServer, type VastServer } from './support/vast/server';
import { asAdmin } from './support/admin-api';

/*
 * Ad zones in the web client (docs/ads.md › "Web client"), against real VAST: an admin makes the zones through the
 * API, and a local ad server (support/vast/server.ts) serves the fixtures, creatives made by ffmpeg and a tracking
 * endpoint that counts each hit. The zones name the ad server's origin, which the pages' CSP then lets in.
 */

type AdCounts = components['schemas']['AdCountsDto'];



const zonesMade: number[] = [];
/** The visitors of a test: closed after it, whatever happened (a page left open would go on playing and asking for ads). */
const contexts: BrowserContext[] = [];

/** A zone on the default brand (guests only, not in embeds unless it says so). */
async function makeZone(zone: Record<string, unknown>): Promise<number> {
  const { id } = await asAdmin<{ id: number }>('/api/admin/ad-zones', { method: 'POST', body: { name: `E2E ${zone.placement}`, brands: ['default'], ...zone } });
  zonesMade.push(id);
  return id;
}

const totals = async (id: number) => (await asAdmin<{ totals: AdCounts }>(`/api/admin/ad-zones/${id}/stats?days=7`)).totals;
const counts = (partial: Partial<AdCounts>): AdCounts => ({ requests: 0, fills: 0, impressions: 0, completes: 0, skips: 0, clicks: 0, errors: 0, ...partial });

const content = (page: Page) => page.locator('video.player__video');
const adRegion = (page: Page) => page.getByRole('region', { name: 'Advertisement' });
const contentTime = (page: Page) => content(page).evaluate((video: HTMLVideoElement) => (video.paused ? -1 : video.currentTime));

/** Console errors about the page's policy: an ad host the CSP did not let in. */
function cspProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  return problems;
}

/** The watch page, with Play pressed. */
async function playVideo(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('.watch-details__title').waitFor();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
}

describe('ad zones', () => {
  let browser: Browser;
  let ads: VastServer;
  let videoId: number;

  const visitor = async (options?: Parameters<typeof newVisitor>[1]) => {
    const made = await newVisitor(browser, options);
    contexts.push(made.context);
    return made;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    ads = await startVastServer();
    // The longest demo clip (10 s or more): long enough to start it past its beginning.
    const { data } = (await (await fetch(`${baseURL()}/api/videos?sort=longest&limit=1`)).json()) as { data: { id: number }[] };
    videoId = data[0].id;
  });
  const cleanUp = async () => {
    for (const context of contexts.splice(0)) await context.close();
    for (const id of zonesMade.splice(0)) await asAdmin(`/api/admin/ad-zones/${id}`, { method: 'DELETE' });
    ads.reset();
  };
  afterEach(cleanUp);
  afterAll(async () => {
    await browser?.close();
    await ads?.close();
  });

  it('plays a pre-roll through a wrapper chain, then the content from ?t=, each tracking URL hit once and the tag’s macros filled', async () => {
    const zone = await makeZone({
      placement: 'preroll',
      kind: 'vast',
      vastUrl: `${ads.origin}/vast/wrapper-1.xml?cb=[CACHEBUSTING]&ts=[TIMESTAMP]&page=[PAGEURL]&domain=[DOMAIN]`,
    });
    const { page, errors } = await visitor();
    const csp = cspProblems(page);
    await playVideo(page, `/video/${videoId}?t=4`);

    await adRegion(page).waitFor({ timeout: 15_000 });
    // The time left counts down from the creative's 6 s.
    await page.getByText(/^Ad · 0:0[56]$/).waitFor({ timeout: 15_000 });
    await page.getByText(/^Ad · 0:0[34]$/).waitFor({ timeout: 10_000 });
    // Not skippable (skipAfter null), and the content waits for it.
    expect(await page.getByRole('button', { name: 'Skip ad' }).count()).toBe(0);
    expect(await content(page).evaluate((video: HTMLVideoElement) => video.paused)).toBe(true);
    await screenshot(page, 'ads-preroll');

    await adRegion(page).waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => contentTime(page), { timeout: 15_000 }).toBeGreaterThan(4);
    // It started where the address said, not at 0 (nor where the ad ended).
    expect(await contentTime(page)).toBeLessThan(8);

    const once = (level: string, events: string[]) => Object.fromEntries(events.map((event) => [`/track/${level}/${event}`, 1]));
    await expect
      .poll(() => ads.hits(), { timeout: 10_000 })
      .toEqual({
        ...once('inline', ['impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete']),
        ...once('wrapper-1', ['impression', 'start', 'complete']),
        ...once('wrapper-2', ['impression', 'midpoint']),
      });

    const asked = ads.requested();
    expect(asked.map((url) => url.pathname)).toEqual(['/vast/wrapper-1.xml', '/vast/wrapper-2.xml', '/vast/inline-linear.xml']);
    const tag = asked[0].searchParams;
    expect(tag.get('cb')).toMatch(/^\d{8}$/);
    expect(Date.parse(tag.get('ts') ?? '')).toBeGreaterThan(Date.now() - 120_000);
    expect(tag.get('page')).toBe(`${baseURL()}/video/${videoId}?t=4`);
    expect(tag.get('domain')).toBe(new URL(baseURL()).hostname);
    expect(asked[1].searchParams.get('cb')).toMatch(/^\d{8}$/);
    expect(asked[2].searchParams.get('domain')).toBe(new URL(baseURL()).hostname);

    await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, fills: 1, impressions: 1, completes: 1 }));
    expect(errors).toEqual([]);
    expect(csp).toEqual([]);
  });

  it('starts the pre-roll of a Play pressed before the app has hydrated at once, and the app takes it over playing', async () => {
    const zone = await makeZone({ placement: 'preroll', kind: 'vast', vastUrl: `${ads.origin}/vast/inline-linear.xml`, skipAfter: 2 });
    const { context, page, errors } = await visitor();
    // A visitor who answered the 18+ gate before: its cookie too, so the server's page comes without the gate (no
    // ad is made ready behind it).
    await context.addCookies([{ name: 'age_confirmed', value: 'true', url: baseURL() }]);
    const csp = cspProblems(page);
    // When the ad's picture is first on screen in the player's early slot (the element marked), and when the app has hydrated.
    await page.addInitScript(() => {
      const seen = window as unknown as { earlyAdFrame?: number; hydrated?: number };
      document.addEventListener('hunktube:hydrated', () => (seen.hydrated ??= performance.now()));
      const look = () => {
        const ad = document.querySelector<HTMLVideoElement>('.player__early-ad .ad-break video');
        if (ad && ad.readyState >= 2 && ad.checkVisibility()) {
          ad.dataset.early = 'true';
          seen.earlyAdFrame = performance.now();
        } else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    // Pressed as soon as the page's first script answers a click (src/early.ts): it starts the pre-roll it made
    // ready alongside the stream (features/ads/early-preroll.ts), and loads the app after the ad's first frame.
    const response = await page.goto(`/video/${videoId}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => performance.getEntriesByName('hunktube:clicks-held').length > 0, undefined, { polling: 'raf' });
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => (window as unknown as { hydrated?: number }).hydrated !== undefined, undefined, { timeout: 15_000 });
    const { earlyAdFrame, hydrated } = await page.evaluate(() => {
      const seen = window as unknown as { earlyAdFrame?: number; hydrated: number };
      return { earlyAdFrame: seen.earlyAdFrame, hydrated: seen.hydrated };
    });
    expect(earlyAdFrame).toBeLessThan(hydrated);

    // The app's break has the same element, playing on; the early slot is empty; Skip comes after the offset.
    await page.locator('.ad-break__media video[data-early="true"]').waitFor({ timeout: 10_000 });
    expect(await page.locator('.player__early-ad').evaluate((slot) => slot.childElementCount)).toBe(0);
    expect(await page.locator('.ad-break__media video').evaluate((video: HTMLVideoElement) => video.paused)).toBe(false);
    expect(await content(page).evaluate((video: HTMLVideoElement) => video.paused)).toBe(true);
    await page.getByRole('button', { name: 'Skip ad' }).click({ timeout: 15_000 });
    await adRegion(page).waitFor({ state: 'detached', timeout: 10_000 });
    await expect.poll(() => content(page).evaluate((video: HTMLVideoElement) => !video.paused && video.currentTime > 0), { timeout: 15_000 }).toBe(true);

    // Each counted once: the zones and the tag asked for once, the impression once.
    expect(ads.requested().map((url) => url.pathname)).toEqual(['/vast/inline-linear.xml']);
    await expect.poll(() => ads.hits()['/track/inline/impression'], { timeout: 10_000 }).toBe(1);
    expect(ads.hits()['/track/inline/skip']).toBe(1);
    await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, fills: 1, impressions: 1, skips: 1 }));
    // The zones are asked for by the browser, never by the server's render: a rendered page kept for guests would
    // keep a zone after its change (docs/ads.md). The page only preloads the request.
    const html = (await response?.text()) ?? '';
    expect(html).not.toContain(ads.origin);
    expect(html).toContain(`href="/api/ads?placement=preroll&amp;embed=false&amp;videoId=${videoId}"`);
    expect(errors).toEqual([]);
    expect(csp).toEqual([]);
  });

  it('plays a creative offered as HLS only (through hls.js where the browser has no HLS of its own)', async () => {
    const zone = await makeZone({ placement: 'preroll', kind: 'vast', vastUrl: `${ads.origin}/vast/inline-hls.xml` });
    const { page, errors } = await visitor();
    const csp = cspProblems(page);
    await playVideo(page, `/video/${videoId}`);
    await adRegion(page).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('video.ad-break__video').evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 15_000 }).toBeGreaterThan(1);
    await adRegion(page).waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => contentTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
    await expect
      .poll(() => ads.hits(), { timeout: 10_000 })
      .toEqual({ '/track/inline-hls/impression': 1, '/track/inline-hls/start': 1, '/track/inline-hls/complete': 1 });
    await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, fills: 1, impressions: 1, completes: 1 }));
    expect(errors).toEqual([]);
    expect(csp).toEqual([]);
  });

  it('shows a non-linear image when the viewer pauses, and nothing more once closed', async () => {
    const zone = await makeZone({ placement: 'pause', kind: 'vast', vastUrl: `${ads.origin}/vast/non-linear.xml` });
    const { page, errors } = await visitor();
    await playVideo(page, `/video/${videoId}`);
    await expect.poll(() => contentTime(page), { timeout: 20_000 }).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    const image = adRegion(page).getByRole('img', { name: 'Advertisement' });
    await image.waitFor({ timeout: 15_000 });
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth), { timeout: 10_000 }).toBe(300);
    expect(await adRegion(page).getByRole('link').getAttribute('href')).toBe(`${ads.origin}/landing?from=non-linear`);
    // Nothing plays during a pause: the content stays paused, the ad is a picture.
    expect(await page.locator('video.ad-break__video').count()).toBe(0);
    await screenshot(page, 'ads-pause');
    await adRegion(page).getByRole('button', { name: 'Close ad' }).click();
    await adRegion(page).waitFor({ state: 'detached' });

    await expect
      .poll(() => ads.hits(), { timeout: 10_000 })
      .toEqual({ '/track/non-linear/impression': 1, '/track/non-linear/creativeView': 1, '/track/non-linear/close': 1 });
    // Once per page: a second pause shows nothing.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.waitForTimeout(1000);
    expect(await adRegion(page).count()).toBe(0);
    await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, fills: 1, impressions: 1 }));
    expect(errors).toEqual([]);
  });

  it('offers Skip after the zone’s offset, and opens the click-through in a new tab', async () => {
    const zone = await makeZone({ placement: 'preroll', kind: 'vast', vastUrl: `${ads.origin}/vast/inline-linear.xml`, skipAfter: 3 });
    const { page, context } = await visitor();
    await playVideo(page, `/video/${videoId}`);

    await page.getByText(/^Skip in [1-3]$/).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Skip ad' }).count()).toBe(0);

    const landing = context.waitForEvent('page');
    await page.getByRole('link', { name: 'Visit the advertiser (opens in a new tab)' }).click();
    const tab = await landing;
    await tab.waitForLoadState();
    expect(tab.url()).toMatch(new RegExp(`^${ads.origin}/landing\\?cb=\\d{8}$`));
    await tab.close();

    const skip = page.getByRole('button', { name: 'Skip ad' });
    await skip.waitFor({ timeout: 10_000 });
    const shown = await page.locator('video.ad-break__video').evaluate((video: HTMLVideoElement) => video.currentTime);
    expect(shown).toBeGreaterThanOrEqual(3);
    expect(shown).toBeLessThan(6);
    await skip.click();
    await adRegion(page).waitFor({ state: 'detached' });
    await expect.poll(() => contentTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);

    // Each event fired once; the third quartile (4.5 s) may have passed before Skip was pressed, the end never did.
    await expect.poll(() => ads.hits()['/track/inline/skip'], { timeout: 10_000 }).toBe(1);
    const { '/track/inline/thirdQuartile': thirdQuartile = 0, ...hits } = ads.hits();
    expect(thirdQuartile).toBeLessThanOrEqual(1);
    expect(hits).toEqual(Object.fromEntries(['impression', 'start', 'firstQuartile', 'midpoint', 'click', 'skip'].map((event) => [`/track/inline/${event}`, 1])));
    await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, fills: 1, impressions: 1, skips: 1, clicks: 1 }));
  });

  it('plays the content when the tag does not answer in time', async () => {
    const zone = await makeZone({ placement: 'preroll', kind: 'vast', vastUrl: `${ads.origin}/vast/slow.xml?ms=30000` });
    const { page, errors } = await visitor();
    await page.goto(`/video/${videoId}`);
    await page.locator('.watch-details__title').waitFor();
    const pressed = Date.now();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => contentTime(page), { timeout: 20_000 }).toBeGreaterThan(0.2);
    // The tag's time limit is 4 s; the stream was loading meanwhile.
    expect(Date.now() - pressed).toBeLessThan(10_000);
    expect(await page.locator('video.ad-break__video').count()).toBe(0);
    expect(ads.requested().map((url) => url.pathname)).toEqual(['/vast/slow.xml']);
    await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, errors: 1 }));
    expect(errors).toEqual([]);
  });

  it('plays the content after a creative that will not play (broken, or 404), reporting VAST error 405; and after no fill', async () => {
    for (const fixture of ['broken', 'error-404', 'no-fill']) {
      const zone = await makeZone({ placement: 'preroll', kind: 'vast', vastUrl: `${ads.origin}/vast/${fixture}.xml` });
      const { page, errors } = await visitor();
      await playVideo(page, `/video/${videoId}`);
      await expect.poll(() => contentTime(page), { timeout: 20_000 }).toBeGreaterThan(0.2);
      expect(await adRegion(page).count()).toBe(0);

      if (fixture === 'no-fill') {
        await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, errors: 1 }));
      } else {
        await expect.poll(() => ads.tracked(`/track/${fixture}/`).map((hit) => `${hit.pathname}${hit.search}`), { timeout: 10_000 }).toEqual([
          `/track/${fixture}/error?code=405`,
        ]);
        await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, fills: 1, errors: 1 }));
      }
      expect(errors).toEqual([]);
      await cleanUp();
    }
  });

  it('shows no ad to a signed-in member when the zone is for guests only', async () => {
    const zone = await makeZone({ placement: 'preroll', kind: 'vast', vastUrl: `${ads.origin}/vast/inline-linear.xml`, members: false });
    const { page } = await visitor();
    await registerMember(page, 'Ad-free Member');
    await playVideo(page, `/video/${videoId}`);
    await expect.poll(() => contentTime(page), { timeout: 20_000 }).toBeGreaterThan(0.5);
    expect(await adRegion(page).count()).toBe(0);
    const answer = await page.evaluate(async () => (await (await fetch('/api/ads?placement=preroll&embed=false')).json()) as { data: unknown[] });
    expect(answer.data).toEqual([]);
    expect(ads.requested()).toEqual([]);
    expect(await totals(zone)).toEqual(counts({}));
  });

  it('renders a banner in a sandboxed frame labelled Advertisement, below the fold, with no layout shift and nothing in the server’s page', async () => {
    const html = `<a href="${ads.origin}/landing" target="_blank"><img src="${ads.origin}/media/pause.png" alt="Pink sale" width="300" height="250"></a>`;
    const zone = await makeZone({ placement: 'banner-listing', kind: 'html', html, hosts: [ads.origin] });
    const { page, errors } = await visitor({ viewport: 'phone' });
    const csp = cspProblems(page);
    // The page's layout shifts (CLS's entries), from its first paint on, each with what moved and by how much.
    await page.addInitScript(() => {
      const state = window as unknown as { layoutShifts: string[] };
      state.layoutShifts = [];
      const describe = (node: Node | null) =>
        node instanceof Element ? `${node.tagName.toLowerCase()}${node.className ? `.${String(node.className).trim().split(/\s+/).join('.')}` : ''}` : String(node?.nodeName);
      const rect = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Shift[]) {
          if (entry.hadRecentInput) continue;
          const moved = entry.sources.map((source) => `${describe(source.node)} ${rect(source.previousRect)} -> ${rect(source.currentRect)}`);
          state.layoutShifts.push(`${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${moved.join('; ')}`);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });

    const response = await page.goto('/');
    const served = (await response?.text()) ?? '';
    // (The style sheet the page carries names the classes: the markup does not.)
    expect(served).not.toContain('Advertisement');
    expect(served).not.toMatch(/class="ad-/);

    const slot = page.getByRole('complementary', { name: 'Advertisement' });
    await slot.waitFor({ state: 'attached', timeout: 15_000 });
    // Reserved out of sight: no frame until it comes near.
    expect(await slot.locator('iframe').count()).toBe(0);
    await slot.scrollIntoViewIfNeeded();
    const frame = slot.locator('iframe');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-popups allow-popups-to-escape-sandbox');
    expect(await frame.getAttribute('title')).toBe('Advertisement');
    expect(await frame.getAttribute('srcdoc')).toBe(html);
    expect(await slot.locator('.ad-label').textContent()).toBe('Advertisement');
    const box = await slot.locator('.ad-banner__box').boundingBox();
    expect([Math.round(box?.width ?? 0), Math.round(box?.height ?? 0)]).toEqual([300, 250]);
    // The snippet's image from the ad host loads in the frame (the CSP lets the zone's hosts in).
    await expect
      .poll(() => page.frameLocator('iframe[title="Advertisement"]').locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth), { timeout: 10_000 })
      .toBe(300);
    // The frame's document is an opaque origin: it cannot read the site's storage.
    expect(await page.frameLocator('iframe[title="Advertisement"]').locator('body').evaluate(() => window.origin)).toBe('null');
    await screenshot(page, 'ads-banner-listing');

    expect(await page.evaluate(() => (window as unknown as { layoutShifts: string[] }).layoutShifts)).toEqual([]);
    await expect.poll(() => totals(zone), { timeout: 10_000 }).toEqual(counts({ requests: 1, fills: 1, impressions: 1 }));
    // The test's own start-up script (the 18+ answer in localStorage) runs in every frame, and the sandbox refuses it there.
    expect(errors.filter((error) => !/localStorage.*sandboxed and lacks the 'allow-same-origin' flag/.test(error))).toEqual([]);
    expect(csp).toEqual([]);
  });
});
