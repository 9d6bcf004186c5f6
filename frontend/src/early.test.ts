import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_HYDRATED_EVENT } from '@/lib/app-hydrated';

// A stand-in for hls.js that records what the early script asks of it.
const hls = vi.hoisted(() => {
  type Listener = (event: string, data: { fatal?: boolean }) => void;
  class FakeHls {
    static instances: FakeHls[] = [];
    static isSupported = () => true;
    static Events = { ERROR: 'hlsError', FRAG_BUFFERED: 'hlsFragBuffered' };
    listeners = new Map<string, Listener>();
    loadSource = vi.fn();
    attachMedia = vi.fn();
    destroy = vi.fn();
    constructor(public config: { startPosition: number }) {
      FakeHls.instances.push(this);
    }
    on(event: string, listener: Listener) {
      this.listeners.set(event, listener);
    }
  }
  return FakeHls;
});
const app = vi.hoisted(() => ({ loaded: 0 }));

vi.mock('hls.js/light', () => ({ default: hls }));

const STREAM = '/s/tok,1/videos/a/index.m3u8';

/** A server-rendered watch page as the early script finds it. */
function watchPage(path: string, routeScripts = '/assets/watch-a.js /assets/player-b.js') {
  window.history.replaceState(null, '', path);
  document.head.innerHTML = `<link rel="preload" as="fetch" crossorigin href="${STREAM}">
    <script type="module" async crossorigin src="/assets/early-c.js" data-route-scripts="${routeScripts}"></script>`;
  document.body.innerHTML =
    '<div id="root"><video class="player__video"></video><button type="button">Like</button><a href="#related">Related</a></div>';
  return document.querySelector('video') as HTMLVideoElement;
}

async function runEarly() {
  vi.resetModules();
  // The app's entry, as the early script imports it: counted each time it is loaded.
  vi.doMock('./main', () => {
    app.loaded += 1;
    return {};
  });
  await import('./early');
}

/** The document as the parser leaves it until `parsed` (an async script may run before the body is there). */
function stillParsing() {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'loading' });
  return {
    parsed() {
      delete (document as { readyState?: unknown }).readyState;
      document.dispatchEvent(new Event('DOMContentLoaded'));
    },
  };
}

beforeEach(() => {
  hls.instances = [];
  app.loaded = 0;
  vi.stubGlobal('MediaSource', class {});
  vi.useFakeTimers({ toFake: ['setTimeout'] });
});
afterEach(() => {
  delete (document as { readyState?: unknown }).readyState;
  // As the app does once it has hydrated: the early script stops holding clicks.
  document.body.innerHTML = '';
  document.dispatchEvent(new Event(APP_HYDRATED_EVENT));
  vi.useRealTimers();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the early script of a watch page', () => {
  it('starts the stream in the page’s video, then loads the app once the first frame is decoded', async () => {
    const video = watchPage('/video/5');
    await runEarly();
    await vi.waitFor(() => expect(hls.instances).toHaveLength(1));
    const [instance] = hls.instances;
    // As the player starts a video that waits for Play (stream-config.ts): one segment buffered, the first asked
    // for as soon as its playlist is read and transmuxed on the page, later ones in hls.js's worker.
    expect(instance.config).toEqual({ startPosition: -1, startFragPrefetch: true, enableWorker: false, maxBufferLength: 1, maxMaxBufferLength: 1 });
    expect(instance.listeners.has('hlsFragBuffered')).toBe(true);
    expect(instance.loadSource).toHaveBeenCalledWith(`${window.location.origin}${STREAM}`);
    expect(instance.attachMedia).toHaveBeenCalledWith(video);
    await Promise.resolve();
    expect(app.loaded).toBe(0);

    // The route's scripts are asked for with the app, not before.
    expect(document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
    video.dispatchEvent(new Event('loadeddata'));
    await vi.waitFor(() => expect(app.loaded).toBe(1));
    const preloads = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')];
    expect(preloads.map((link) => [new URL(link.href).pathname, link.getAttribute('crossorigin')])).toEqual([
      ['/assets/watch-a.js', ''],
      ['/assets/player-b.js', ''],
    ]);
  });

  it('waits for the page’s video when it runs before the parser has reached it', async () => {
    watchPage('/video/5');
    const player = document.querySelector('#root') as HTMLElement;
    const video = document.querySelector('video') as HTMLVideoElement;
    video.remove();
    const parser = stillParsing();
    await runEarly();
    await Promise.resolve();
    expect(hls.instances).toHaveLength(0);
    player.prepend(video);
    parser.parsed();
    await vi.waitFor(() => expect(hls.instances).toHaveLength(1));
    expect(hls.instances[0].attachMedia).toHaveBeenCalledWith(video);
  });

  it('starts where the player would: ?t=, else where this browser left the video', async () => {
    watchPage('/video/5?t=1m30s');
    await runEarly();
    await vi.waitFor(() => expect(hls.instances[0]?.config).toMatchObject({ startPosition: 90 }));

    hls.instances = [];
    window.localStorage.setItem('resume_5', '42');
    watchPage('/video/5');
    await runEarly();
    await vi.waitFor(() => expect(hls.instances[0]?.config).toMatchObject({ startPosition: 42 }));
  });

  it('loads the app after a while without a first frame, and at once after a fatal error (the stream stopped)', async () => {
    watchPage('/video/5');
    await runEarly();
    await vi.waitFor(() => expect(hls.instances).toHaveLength(1));
    vi.advanceTimersByTime(1499);
    await Promise.resolve();
    expect(app.loaded).toBe(0);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(app.loaded).toBe(1));

    hls.instances = [];
    app.loaded = 0;
    watchPage('/video/6');
    await runEarly();
    await vi.waitFor(() => expect(hls.instances).toHaveLength(1));
    hls.instances[0].listeners.get(hls.Events.ERROR)?.('hlsError', { fatal: true });
    await vi.waitFor(() => expect(app.loaded).toBe(1));
    expect(hls.instances[0].destroy).toHaveBeenCalled();
  });

  it('holds a click on a control until the app has hydrated the page, loading it at once, then clicks it again', async () => {
    watchPage('/video/5');
    await runEarly();
    await vi.waitFor(() => expect(hls.instances).toHaveLength(1));
    const button = document.querySelector('button') as HTMLButtonElement;
    const clicks: boolean[] = [];
    button.addEventListener('click', (event) => clicks.push(event.isTrusted));

    button.click();
    expect(clicks).toEqual([]);
    await vi.waitFor(() => expect(app.loaded).toBe(1));
    // A link is no control: it works without the app.
    const link = document.querySelector('a') as HTMLAnchorElement;
    let followed = false;
    link.addEventListener('click', (event) => {
      followed = !event.defaultPrevented;
      event.preventDefault();
    });
    link.click();
    expect(followed).toBe(true);

    document.dispatchEvent(new Event(APP_HYDRATED_EVENT));
    expect(clicks).toHaveLength(1);
    // Once hydrated, clicks go straight through.
    button.click();
    expect(clicks).toHaveLength(2);
  });

  it.each([
    ['a page without images fetched first', '/categories/pool', true],
    ['a watch page without Media Source Extensions', '/video/5', false],
  ])('loads the app at once on %s', async (_name, path, mse) => {
    watchPage(path);
    if (!mse) vi.stubGlobal('MediaSource', undefined);
    if (!mse) delete (window as { MediaSource?: unknown }).MediaSource;
    await runEarly();
    await vi.waitFor(() => expect(app.loaded).toBe(1));
    expect(hls.instances).toHaveLength(0);
  });
});

describe('the early script of another server-rendered page', () => {
  /** A listing as the server renders it: its first card's image fetched with high priority, others lazily. */
  function listingPage() {
    window.history.replaceState(null, '', '/categories/pool');
    document.head.innerHTML = '<script type="module" async crossorigin src="/assets/early-c.js" data-route-scripts="/assets/browse-a.js"></script>';
    document.body.innerHTML = `<div id="root"><img class="first" src="/thumbs/a.webp" fetchpriority="high"><img src="/thumbs/b.webp" loading="lazy">
      <img class="second" src="/thumbs/c.webp" fetchpriority="high"><button type="button">Follow</button></div>`;
    const images = [...document.querySelectorAll<HTMLImageElement>('img')];
    // Not loaded yet (jsdom fetches no image).
    for (const image of images) Object.defineProperty(image, 'complete', { configurable: true, value: false });
    return images;
  }
  /** Whether the early script has asked for the app yet (it preloads the route's scripts as it does). */
  const appAskedFor = () => document.querySelectorAll('link[rel="modulepreload"]').length > 0;

  it('loads the app once the images fetched first have loaded (or failed), and no stream', async () => {
    const [first, lazy, second] = listingPage();
    await runEarly();
    await Promise.resolve();
    expect(appAskedFor()).toBe(false);
    // The lazily loaded image is not waited for; one of the first failed, the other loads.
    lazy.dispatchEvent(new Event('load'));
    first.dispatchEvent(new Event('error'));
    await Promise.resolve();
    expect(appAskedFor()).toBe(false);
    second.dispatchEvent(new Event('load'));
    await vi.waitFor(() => expect(app.loaded).toBe(1));
    expect([...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => new URL(link.href).pathname)).toEqual([
      '/assets/browse-a.js',
    ]);
    expect(hls.instances).toHaveLength(0);
  });

  it('waits for the images when it runs before the parser has reached them', async () => {
    const images = listingPage();
    const root = document.querySelector('#root') as HTMLElement;
    for (const image of images) image.remove();
    const parser = stillParsing();
    await runEarly();
    await Promise.resolve();
    root.prepend(...images);
    parser.parsed();
    await Promise.resolve();
    expect(appAskedFor()).toBe(false);
    images[0].dispatchEvent(new Event('load'));
    images[2].dispatchEvent(new Event('load'));
    await vi.waitFor(() => expect(app.loaded).toBe(1));
  });

  it('loads the app at once when those images were there before it, and after a while when they never come', async () => {
    const images = listingPage();
    for (const image of images) Object.defineProperty(image, 'complete', { configurable: true, value: true });
    await runEarly();
    await vi.waitFor(() => expect(app.loaded).toBe(1));

    app.loaded = 0;
    listingPage();
    await runEarly();
    await Promise.resolve();
    vi.advanceTimersByTime(1499);
    await Promise.resolve();
    expect(appAskedFor()).toBe(false);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(app.loaded).toBe(1));
  });

  it('holds a click on a control meanwhile: the app loads at once and answers it once it has hydrated the page', async () => {
    listingPage();
    await runEarly();
    const button = document.querySelector('button') as HTMLButtonElement;
    let clicks = 0;
    button.addEventListener('click', () => (clicks += 1));
    button.click();
    await vi.waitFor(() => expect(app.loaded).toBe(1));
    expect(clicks).toBe(0);
    document.dispatchEvent(new Event(APP_HYDRATED_EVENT));
    expect(clicks).toBe(1);
  });
});
