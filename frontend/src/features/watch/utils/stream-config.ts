import type Hls from 'hls.js/light';
import type { HlsConfig } from 'hls.js/light';

/**
 * What hls.js buffers ahead (seconds): its defaults once the video plays; before that, one segment (enough for
 * the first frame and an instant start on Play). A visitor who only looks at the page does not download half a
 * minute of video, and the page's main thread is not kept busy appending it while it loads
 * (docs/web-client.md › "First frame").
 */
export const PLAYING_BUFFER = { maxBufferLength: 30, maxMaxBufferLength: 600 } satisfies Partial<HlsConfig>;
const WAITING_BUFFER = { maxBufferLength: 1, maxMaxBufferLength: 1 } satisfies Partial<HlsConfig>;

/**
 * How hls.js starts a stream, the same in the player (useHls) and in a watch page's first script (src/early.ts),
 * which the player takes the stream over from (both through newStream): at `position` (seconds; 0 from the start),
 * with the first segment asked for as soon as its playlist is read rather than once the video element has opened
 * its media source, and transmuxed on the page's own thread (see workerAfterFirstSegment).
 */
export function streamConfig(position: number, play: boolean): Partial<HlsConfig> {
  return {
    startPosition: position > 0 ? position : -1,
    startFragPrefetch: true,
    enableWorker: false,
    ...(play ? PLAYING_BUFFER : WAITING_BUFFER),
  };
}

/** What the hand-over to the worker touches of hls.js's own (hls.js 1.7, pinned): its main stream's transmuxer. */
interface HlsInternals {
  streamController?: { transmuxer?: { destroy(): void } | null };
}

/**
 * hls.js transmuxes the stream's first segment on the page's thread, and every later one in its worker.
 *
 * hls.js starts its worker only when the first segment has arrived, and the worker first compiles the whole of
 * hls.js (380 kB) before it transmuxes anything: on the way to the first frame, that takes longer than
 * transmuxing one segment here (docs/web-client.md › "First frame": measured). Once the first segment is
 * appended, the stream's transmuxer is dropped and `enableWorker` set, so that hls.js makes its next one, with a
 * worker, for the next segment, as it does itself the other way after a worker error; the worker then starts while
 * the first segment plays. Alternate audio (not in these streams) would stay on the page's thread.
 */
export function workerAfterFirstSegment(hls: Hls, events: typeof Hls.Events): void {
  const onBuffered = (_event: unknown, data: { frag: { type: string } }) => {
    if (data.frag.type !== 'main') return;
    hls.off(events.FRAG_BUFFERED, onBuffered);
    hls.config.enableWorker = true;
    const controller = (hls as unknown as HlsInternals).streamController;
    if (controller?.transmuxer) {
      controller.transmuxer.destroy();
      controller.transmuxer = null;
    }
  };
  hls.on(events.FRAG_BUFFERED, onBuffered);
}

/**
 * A new hls.js stream as the player and the early script start one: streamConfig, with the hand-over to the
 * worker that its `enableWorker: false` needs (a stream without it would transmux on the page's thread for good).
 */
export function newStream(HlsClass: typeof Hls, position: number, play: boolean): Hls {
  const hls = new HlsClass(streamConfig(position, play));
  workerAfterFirstSegment(hls, HlsClass.Events);
  return hls;
}
