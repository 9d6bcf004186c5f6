// The first script of a server-rendered page (docs/web-client.md › "Server rendering" and "First frame"). The
// page is readable and its links work without the app, so the app is loaded once the page shows what it shows
// first: on a watch page, once the stream this script starts in the page's own <video> (with hls.js, the way the
// player would) has decoded its first frame; on the others, once the first screen's largest images (those
// fetched with high priority) have loaded; after APP_WAIT_MS at most. The app's modules would otherwise compete
// with that picture for the connection, and evaluating and hydrating them takes the main thread for a few hundred
// milliseconds, which hls.js needs to fetch, transmux and append the first segment. The player takes the stream
// over when it mounts (takeEarlyStream). The page's head preloads this script's imports (and a watch page's
// hls.js) only: the app's modules are asked for when it loads.
//
// It imports nothing of the app's but these small modules: whatever it imports statically is downloaded and
// evaluated before the stream can start.
import { earlyPrerollSettled, earlyPrerollUnderWay, prepareEarlyPreroll, startEarlyPreroll } from '@/features/ads/early-preroll';
import { dropEarlyStream, keepEarlyStream } from '@/features/watch/utils/early-stream';
import { hasMediaSource, loadHls } from '@/features/watch/utils/load-hls';
import { parseStartTime } from '@/features/watch/utils/start-time';
import { newStream } from '@/features/watch/utils/stream-config';
import { APP_HYDRATED_EVENT } from '@/lib/app-hydrated';
import { readResumePosition } from '@/lib/resume-position';

/** How long the app waits for the page's first picture at most. */
const APP_WAIT_MS = 1500;
/** How long the stream waits for a pre-roll to start at most (features/ads/early-preroll.ts). */
const PREROLL_FIRST_MS = 1500;

/** Starts a watch page's stream; true once its first frame is decoded (or APP_WAIT_MS), false without a stream. */
async function startStream(): Promise<boolean> {
  const id = /^\/video\/([1-9]\d{0,9})(?:\/|$)/.exec(window.location.pathname)?.[1];
  const link = document.querySelector<HTMLLinkElement>('link[rel="preload"][as="fetch"][href$="/index.m3u8"]');
  if (!id || !link) return false;
  const video = await parsed<HTMLVideoElement>('#root video.player__video');
  if (!video) return false;
  // The pre-roll, where a zone has one, made ready alongside the stream (features/ads/early-preroll.ts).
  // (The window's width for the player's: reading the element's would lay the page out before its time.)
  prepareEarlyPreroll(Number(id), Math.min(window.innerWidth, 1280) * window.devicePixelRatio);
  // Its answer is preloaded by the page: with a pre-roll to show first, hls.js is loaded once Play has started
  // the ad (the page answers that Play at once), or after PREROLL_FIRST_MS.
  await atMost(earlyPrerollUnderWay(), PREROLL_FIRST_MS);
  if (!hasMediaSource()) return false;
  // The player's own start: ?t=, else where this browser left the video.
  const position = parseStartTime(new URLSearchParams(window.location.search).get('t')) ?? readResumePosition(Number(id)) ?? 0;
  const { default: Hls } = await loadHls();
  if (!Hls.isSupported()) return false;
  // Not playing yet: the first page of a visit does not start playing by itself.
  const hls = newStream(Hls, position, false);
  const firstFrame = new Promise<void>((resolve) => {
    video.addEventListener('loadeddata', () => resolve(), { once: true });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      dropEarlyStream(hls);
      resolve();
    });
    setTimeout(resolve, APP_WAIT_MS);
  });
  hls.loadSource(link.href);
  hls.attachMedia(video);
  keepEarlyStream({ hls, src: link.href, position, video });
  performance.mark('hunktube:stream');
  await firstFrame;
  return true;
}

/**
 * The page's element once the parser has reached it: at once when it has, else once the document is parsed (this
 * script is async: it may run before the parser has reached the body).
 */
async function parsed<T extends Element>(selector: string): Promise<T | null> {
  const found = document.querySelector<T>(selector);
  if (found) return found;
  await documentParsed();
  return document.querySelector<T>(selector);
}

function documentParsed(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}

/** Resolves when `work` is done (or has failed), or after `ms` at most. */
function atMost(work: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([work.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms))]);
}

/** The first screen's largest images (the cards' first, fetched with high priority) loaded or failed, or APP_WAIT_MS. */
async function firstImages(): Promise<void> {
  await documentParsed();
  const pending = [...document.querySelectorAll<HTMLImageElement>('#root img[fetchpriority="high"]')].filter((image) => !image.complete);
  if (pending.length === 0) return;
  await new Promise<void>((resolve) => {
    let left = pending.length;
    const done = () => {
      left -= 1;
      if (left === 0) resolve();
    };
    for (const image of pending) {
      image.addEventListener('load', done, { once: true });
      image.addEventListener('error', done, { once: true });
    }
    setTimeout(resolve, APP_WAIT_MS);
  });
}

/**
 * The scripts of the page's route, which the server lists on this script's tag (the app's own modules come with
 * its import): asked for with the app, so that the route's module is not a second round trip after it.
 */
function preloadRouteScripts(): void {
  const list = document.querySelector<HTMLScriptElement>('script[data-route-scripts]')?.dataset.routeScripts ?? '';
  for (const href of list.split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
}

let app: Promise<unknown> | undefined;

/** The player's Play button, as the server renders it. */
const PLAY_BUTTON = '.player .player__buttons button[aria-label="Play"]';

/** Loads the app, once: after the first picture, or at once when the visitor clicks something it has to answer. */
function loadApp(): Promise<unknown> {
  if (!app) {
    preloadRouteScripts();
    app = import('./main');
  }
  return app;
}

/**
 * Until the app has hydrated the page, a click on one of its controls (a button, a form field: links work
 * without the app) is held: it loads the app at once, and the control is clicked again once the app answers
 * it (APP_HYDRATED_EVENT), instead of the click being lost on HTML that nothing listens to yet.
 */
function holdClicks(): void {
  const held: HTMLElement[] = [];
  const onClick = (event: MouseEvent) => {
    const control = event.target instanceof Element ? event.target.closest<HTMLElement>('#root :is(button, input, select, textarea, label, summary, [role="button"])') : null;
    if (!control) return;
    event.preventDefault();
    event.stopPropagation();
    held.push(control);
    // The player's Play: a pre-roll made ready starts now, and the app (which takes it over once it answers the
    // click) is loaded once the ad's first frame is on screen: its modules would hold that frame back.
    if (control.matches(PLAY_BUTTON)) void atMost(startEarlyPreroll(), APP_WAIT_MS).finally(loadApp);
    else void loadApp();
  };
  document.addEventListener('click', onClick, true);
  performance.mark('hunktube:clicks-held');
  document.addEventListener(
    APP_HYDRATED_EVENT,
    () => {
      document.removeEventListener('click', onClick, true);
      for (const control of held) if (control.isConnected) control.click();
    },
    { once: true },
  );
}

holdClicks();
void startStream()
  // A watch page's pre-roll is made ready before the app, whose modules would hold it back (the ad is what Play shows).
  .then((started) => (started ? atMost(earlyPrerollSettled(), APP_WAIT_MS) : firstImages()))
  .catch(() => undefined)
  .finally(loadApp);
