import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { vi } from 'vitest';
import type { components } from '@/lib/api/schema';

/** Where the VAST fixtures' `{{ORIGIN}}` points in unit tests (the browser tests serve them for real). */
export const ADS_ORIGIN = 'https://ads.test';

/** A VAST fixture of e2e/support/vast/fixtures (the IAB's VAST 4 samples' shapes), its `{{ORIGIN}}` filled (tests run in frontend/). */
export const vastFixture = (name: string, origin = ADS_ORIGIN): string =>
  readFileSync(resolve(process.cwd(), `e2e/support/vast/fixtures/${name}.xml`), 'utf8').replaceAll('{{ORIGIN}}', origin);

/** A 200 answer carrying a VAST document. */
export const xml = (text: string) => new Response(text, { status: 200, headers: { 'Content-Type': 'application/xml' } });

/**
 * The tracking pixels fired from now on: vast-client fires each tracking URL as an image's `src`, which jsdom
 * never fetches. Each entry is the URL's path and query on the ads' origin (under /track/; other images keep theirs).
 */
export function trackPixels(): string[] {
  const fired: string[] = [];
  const setSrc = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src')?.set;
  vi.spyOn(HTMLImageElement.prototype, 'src', 'set').mockImplementation(function (this: HTMLImageElement, url: string) {
    if (url.startsWith(`${ADS_ORIGIN}/track/`)) fired.push(url.slice(ADS_ORIGIN.length));
    else setSrc?.call(this, url);
  });
  return fired;
}

/** The fired pixels' paths, without their queries. */
export const pixelPaths = (fired: string[]) => fired.map((url) => url.split('?')[0]);

/** A pre-roll zone as GET /api/ads answers it: the inline linear fixture's tag, skippable after 2 s. */
export const prerollZone = (overrides: Partial<components['schemas']['AdSlotDto']> = {}): components['schemas']['AdSlotDto'] => ({
  id: 5,
  placement: 'preroll',
  kind: 'vast',
  vastUrl: `${ADS_ORIGIN}/vast/inline-linear.xml?cb=[CACHEBUSTING]`,
  html: null,
  skipAfter: 2,
  weight: 1,
  frequencyCap: null,
  ...overrides,
});
