/**
 * Whether hls.js can run here (Media Source Extensions, or Safari's ManagedMediaSource). It is preferred even
 * where the browser also plays HLS itself (recent Chromium does): only hls.js gives the quality menu, the
 * status codes that tell an expired signed URL from other errors, and the same behaviour everywhere. Native
 * playback remains for browsers without MSE (older iPhones).
 */
export const hasMediaSource = () =>
  typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window);

// The light build: these streams carry no subtitles, alternate audio or DRM.
let hlsModule: Promise<typeof import('hls.js/light')> | undefined;

/** hls.js, fetched once: first by the router when a video is opened (see prefetch-watch.ts), then used by the player. */
export const loadHls = () => (hlsModule ??= import('hls.js/light'));
