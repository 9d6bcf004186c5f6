// The first script of a server-rendered watch page (README › Web client › "First frame"): it starts the stream
// in the page's own <video> with hls.js, the way the player would, and loads the app once the first frame is
// decoded (or after APP_WAIT_MS): evaluating and hydrating the app takes the main thread for a few hundred
// milliseconds, which hls.js needs to fetch, transmux and append the first segment. The player takes the stream
// over when it mounts (takeEarlyStream). The app's scripts download meanwhile (modulepreload).
import { dropEarlyStream, keepEarlyStream } from '@/features/watch/utils/early-stream';
import { hasMediaSource, loadHls } from '@/features/watch/utils/load-hls';
import { parseStartTime } from '@/features/watch/utils/watch-context';
import { readResumePosition } from '@/lib/continue-watching';

/** How long the app waits for the first frame at most. */
const APP_WAIT_MS = 1500;

async function startStream(): Promise<void> {
  const id = /^\/video\/([1-9]\d{0,9})(?:\/|$)/.exec(window.location.pathname)?.[1];
  const video = document.querySelector<HTMLVideoElement>('#root video.player__video');
  const link = document.querySelector<HTMLLinkElement>('link[rel="preload"][as="fetch"][href*=".m3u8"]');
  if (!id || !video || !link || !hasMediaSource()) return;
  // The player's own start: ?t=, else where this browser left the video.
  const position = parseStartTime(new URLSearchParams(window.location.search).get('t')) ?? readResumePosition(Number(id)) ?? 0;
  const { default: Hls } = await loadHls();
  if (!Hls.isSupported()) return;
  const hls = new Hls({ startPosition: position > 0 ? position : -1 });
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
}

void startStream()
  .catch(() => undefined)
  .finally(() => import('./main'));
