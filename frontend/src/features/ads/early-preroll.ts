import type { AdSlotList, AdSlotsRequest } from './api/types';
import { chooseZone, playsVast } from './utils/choose-zone';
import { readImpressions } from './utils/impressions';
import { fillTagMacros, pageMacros } from './utils/macros';
import type { EarlyAd } from './utils/prepare-preroll';

// A watch page's pre-roll, made ready by the page's first script (src/early.ts) alongside the content's stream,
// so that the ad's first frame is as near as the content's would be (issue #35, docs/ads.md › "Web client"): the
// zones are asked for at once, and when one is VAST its tag is resolved and its creative loaded; a Play pressed
// before the app has hydrated starts it in the player's slot for it; the app's break takes it over (the same
// element, playing on). Small on purpose: the early script's chunk carries it; the rest comes with the zone.

let answer: { videoId: number; list: Promise<AdSlotList> } | null = null;
let prepared: Promise<EarlyAd | null> | null = null;
/** The video the page was opened on: the pre-roll is its own (the app may have moved to another since). */
let preparedFor: number | null = null;
let ready: EarlyAd | null = null;
let taken = false;
/** Resolved once Play has shown the prepared ad (startEarlyPreroll). */
let markStarted: () => void = () => {};
const started = new Promise<void>((resolve) => {
  markStarted = resolve;
});

/**
 * The address of GET /api/ads for a watch page's pre-roll: the one the server's page preloads (entry-server.tsx),
 * so that this script's read is answered by that preload.
 */
export const prerollAddress = (videoId: number) => `/api/ads?placement=preroll&embed=false&videoId=${videoId}`;

/**
 * Asks for a watch page's pre-roll zones and prepares the ad when one is VAST; nothing while the 18+ gate is up
 * (no ad before it is answered). `targetWidth`: the player's width in device pixels, for the media file.
 */
export function prepareEarlyPreroll(videoId: number, targetWidth: number): void {
  // The gate makes the page behind it inert (the page's element, parsed before the player).
  if (answer || document.querySelector('#root .app[inert], .age-gate')) return;
  // As the page's preload asks (same address, mode and credentials), so that its answer is this one.
  const list = fetch(prerollAddress(videoId), { credentials: 'same-origin' }).then((response) =>
    response.ok ? (response.json() as Promise<AdSlotList>) : Promise.reject(new Error(`GET /api/ads answered ${response.status}`)),
  );
  answer = { videoId, list };
  preparedFor = videoId;
  prepared = list
    .then(({ data }) => {
      // The zone (by weight, under this browser's caps), and its tag asked for while the VAST client loads.
      const zone = chooseZone(data.filter(playsVast), readImpressions(), Date.now());
      if (!zone?.vastUrl) return null;
      const macros = pageMacros();
      const url = fillTagMacros(zone.vastUrl, macros);
      const prefetched = { url, response: fetch(url, { credentials: 'omit' }) };
      prefetched.response.catch(() => undefined);
      return import('./utils/prepare-preroll').then((m) => m.preparePreroll(zone, targetWidth, { prefetched, macros }));
    })
    .catch(() => null)
    .then((ad) => (ready = ad));
}

/** How long after the ad's first frame the early script still waits for Play before loading hls.js. */
const PLAY_GRACE_MS = 300;

/**
 * Settles once Play has started the prepared pre-roll, or PLAY_GRACE_MS after its first frame was ready, or at
 * once when there is none: the early script loads hls.js after that (under its own time limit), since hls.js's
 * evaluation and first segments would hold the ad back, and keep the page from answering the Play that starts it
 * (the content buffers while the ad plays).
 */
export const earlyPrerollUnderWay = (): Promise<unknown> =>
  (prepared ?? Promise.resolve(null)).then((ad) =>
    ad ? Promise.race([started, ad.playback.firstFrame.then(() => new Promise((resolve) => setTimeout(resolve, PLAY_GRACE_MS)))]) : undefined,
  );

/** Settles once the pre-roll is ready (its tag resolved, its creative loading) or there is none. */
export const earlyPrerollSettled = (): Promise<unknown> => prepared ?? Promise.resolve();

/** The app's read of the same zones (get-ads.ts): the early script's answer, once, instead of a second request. */
export function takeEarlyAnswer({ placement, embed, videoId }: AdSlotsRequest): Promise<AdSlotList> | null {
  if (!answer || placement !== 'preroll' || embed || videoId !== answer.videoId) return null;
  const { list } = answer;
  answer = null;
  return list;
}

/**
 * Play pressed before the app answers it (src/early.ts): the pre-roll starts in the player's slot once ready.
 * Resolves once its first frame is on screen, or at once when there is none to show (the app may load then).
 */
export function startEarlyPreroll(): Promise<void> {
  if (!prepared) return Promise.resolve();
  return prepared.then((ad) => {
    const slot = document.querySelector('#root .player__early-ad');
    if (ad && slot && !taken) return ad.show(slot).finally(markStarted);
  });
}

/** Whether a pre-roll prepared for this video waits for the player's break (which then takes it, even past a zone's cap). */
export const hasEarlyPreroll = (videoId: number): boolean => !taken && videoId === preparedFor && ready !== null && !ready.playback.ended;

/**
 * The player's pre-roll for `videoId` (ad-break.tsx), once: prepared (or being prepared) by the early script,
 * else null. The first player that asks takes it: one of another video (the app has moved on) lets it go.
 */
export function takeEarlyPreroll(videoId: number): Promise<EarlyAd | null> | null {
  if (!prepared || taken) return null;
  taken = true;
  if (videoId === preparedFor) return prepared;
  void prepared.then((ad) => ad?.playback.unload());
  return null;
}

/** The early view in the player's slot goes: the break's component shows the ad now. */
export function dropEarlyPrerollView(): void {
  ready?.hide();
}
