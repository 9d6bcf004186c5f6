import type Hls from 'hls.js/light';

/** A stream a server-rendered watch page started before the app (src/early.ts), waiting for its player. */
export interface EarlyStream {
  hls: Hls;
  /** The master playlist's absolute address. */
  src: string;
  /** Where it started (seconds; 0 from the start). */
  position: number;
  video: HTMLVideoElement;
}

let waiting: EarlyStream | null = null;

export function keepEarlyStream(stream: EarlyStream): void {
  waiting = stream;
}

/** Stops the early stream after a fatal error: the player starts its own. */
export function dropEarlyStream(hls: Hls): void {
  if (waiting?.hls !== hls) return;
  waiting = null;
  hls.destroy();
}

/**
 * The early stream, handed over once to the player that would have started the same one (same element, same
 * address, same start); anything else stops it, and the player starts its own.
 */
export function takeEarlyStream(video: HTMLVideoElement, src: string, position: number): Hls | null {
  const stream = waiting;
  waiting = null;
  if (!stream) return null;
  if (stream.video === video && stream.src === new URL(src, window.location.href).href && stream.position === position) return stream.hls;
  stream.hls.destroy();
  return null;
}
