import type { HlsConfig } from 'hls.js/light';

/**
 * What hls.js buffers ahead (seconds): its defaults once the video plays; before that, one segment (enough for
 * the first frame and an instant start on Play). A visitor who only looks at the page does not download half a
 * minute of video, and the page's main thread is not kept busy appending it while it loads
 * (README › Web client › "First frame").
 */
export const PLAYING_BUFFER = { maxBufferLength: 30, maxMaxBufferLength: 600 } satisfies Partial<HlsConfig>;
const WAITING_BUFFER = { maxBufferLength: 1, maxMaxBufferLength: 1 } satisfies Partial<HlsConfig>;

/**
 * How hls.js starts a stream, the same in the player (useHls) and in a watch page's first script (src/early.ts),
 * which the player takes the stream over from: at `position` (seconds; 0 from the start), with the first segment
 * asked for as soon as its playlist is read rather than once the video element has opened its media source.
 */
export function streamConfig(position: number, play: boolean): Partial<HlsConfig> {
  return { startPosition: position > 0 ? position : -1, startFragPrefetch: true, ...(play ? PLAYING_BUFFER : WAITING_BUFFER) };
}
