import { isHlsType, type AdMedia } from './vast';

const NATIVE_HLS = 'application/vnd.apple.mpegurl';
/** Media Source Extensions, which hls.js needs where the browser does not play HLS itself. */
const hasMediaSource = () => 'MediaSource' in window || 'ManagedMediaSource' in window;

/** Whether this browser can play a creative of this type: MP4 and the like by the element, HLS natively or through hls.js. */
export function browserCanPlay(mimeType: string): boolean {
  const probe = document.createElement('video');
  if (isHlsType(mimeType)) return probe.canPlayType(NATIVE_HLS) !== '' || hasMediaSource();
  return probe.canPlayType(mimeType) !== '';
}

/**
 * Puts the creative in the ad's element: an MP4 (or an HLS playlist the browser plays itself) as its source, else
 * an HLS playlist through hls.js (its light build, the chunk the player loads too). `onFatal` hears what hls.js
 * cannot recover from; the element's own errors come as its `error` event. Answers how to let go of it.
 */
export async function attachAdMedia(video: HTMLVideoElement, media: AdMedia, onFatal: () => void): Promise<() => void> {
  if (!media.hls || video.canPlayType(NATIVE_HLS) !== '') {
    video.src = media.url;
    return () => {
      video.removeAttribute('src');
      video.load();
    };
  }
  const { default: Hls } = await import('hls.js/light');
  if (!Hls.isSupported()) {
    onFatal();
    return () => {};
  }
  const hls = new Hls({ maxBufferLength: 10 });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) onFatal();
  });
  hls.loadSource(media.url);
  hls.attachMedia(video);
  return () => hls.destroy();
}
