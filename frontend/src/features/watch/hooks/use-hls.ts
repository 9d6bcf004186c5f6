import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type Hls from 'hls.js/light';
import { takeEarlyStream } from '../utils/early-stream';
import { hasMediaSource, loadHls } from '../utils/load-hls';
import { newStream, PLAYING_BUFFER } from '../utils/stream-config';

export interface QualityLevel {
  /** hls.js's level index. */
  index: number;
  /** "720p", or the bitrate when the rendition has no height. */
  label: string;
}

export interface UseHlsOptions {
  /** Where to start once the stream is attached (seconds); read at each attach. */
  startPosition: () => number;
  /** Whether to start playing once attached (a video reached by next or autoplay, or one that was playing). */
  autoPlay: () => boolean;
  /** The signed URL was refused (403) or has expired (410): the caller fetches a new one. */
  onSourceExpired: () => void;
}

export interface UseHlsResult {
  /** The stream's renditions, highest first; empty with native HLS, which picks by itself. */
  levels: QualityLevel[];
  /** The chosen level's index, or -1 for automatic. */
  level: number;
  setLevel: (index: number) => void;
}

const HLS_MIME = 'application/vnd.apple.mpegurl';

const EXPIRED = new Set([403, 410]);

function levelLabel(level: { height?: number; bitrate?: number }): string {
  if (level.height) return `${level.height}p`;
  return `${Math.round((level.bitrate ?? 0) / 1000)} kbps`;
}

function start(video: HTMLVideoElement, position: number, play: boolean) {
  if (position > 0) video.currentTime = position;
  if (play) void video.play().catch(() => {});
}

/**
 * The one owner of hls.js: plays `src` (an HLS master playlist) in the video element, natively where the browser
 * can (Safari), else through hls.js (loaded on demand, so browsers with native HLS never download it). It recovers
 * from media and network errors, reports an expired signature, and tears everything down when `src` changes or
 * the component goes away.
 */
export function useHls(
  videoRef: RefObject<HTMLVideoElement | null>,
  src: string | null,
  options: UseHlsOptions,
): UseHlsResult {
  const [levels, setLevels] = useState<QualityLevel[]>([]);
  const [level, setLevelState] = useState(-1);
  const hlsRef = useRef<Hls | null>(null);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !src) return;
    const { startPosition, autoPlay } = optionsRef.current;
    const position = startPosition();
    const play = autoPlay();
    let cancelled = false;
    const aborted = new AbortController();
    let expiredReported = false;
    const reportExpired = () => {
      if (expiredReported) return;
      expiredReported = true;
      optionsRef.current.onSourceExpired();
    };

    if (!hasMediaSource() && video.canPlayType(HLS_MIME)) {
      // Native HLS reports no status codes: a network error on a signed stream is taken for an expired URL.
      const onLoaded = () => start(video, position, play);
      const onError = () => {
        if (video.error?.code === MediaError.MEDIA_ERR_NETWORK) reportExpired();
      };
      video.addEventListener('loadedmetadata', onLoaded, { once: true });
      video.addEventListener('error', onError);
      video.src = src;
      return () => {
        video.removeEventListener('loadedmetadata', onLoaded);
        video.removeEventListener('error', onError);
        video.removeAttribute('src');
        video.load();
      };
    }

    void loadHls().then(({ default: HlsClass }) => {
      if (cancelled || !HlsClass.isSupported()) return;
      // The stream a server-rendered page started before the app, when it is this one (src/early.ts).
      const early = takeEarlyStream(video, src, position);
      const hls = early ?? newStream(HlsClass, position, play);
      hlsRef.current = hls;
      // An early stream started waiting for Play; a stream of the player's own has the buffer it needs already.
      if (play && early) Object.assign(hls.config, PLAYING_BUFFER);
      else if (!play) {
        // hls.js reads these at every tick: the buffer fills up as soon as the video plays.
        video.addEventListener('play', () => Object.assign(hls.config, PLAYING_BUFFER), { once: true, signal: aborted.signal });
      }

      const parsed = (renditions: Hls['levels']) => {
        setLevels(
          renditions
            .map((rendition, index) => ({ index, label: levelLabel(rendition), height: rendition.height ?? 0 }))
            .sort((a, b) => b.height - a.height)
            .map(({ index, label }) => ({ index, label })),
        );
        if (play) void video.play().catch(() => {});
      };
      if (early && early.levels.length > 0) parsed(early.levels);
      else hls.on(HlsClass.Events.MANIFEST_PARSED, (_event, data) => parsed(data.levels));
      hls.on(HlsClass.Events.ERROR, (_event, data) => {
        const status = data.response?.code;
        if (status !== undefined && EXPIRED.has(status)) {
          reportExpired();
          return;
        }
        if (!data.fatal) return;
        if (data.type === HlsClass.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
        else if (data.type === HlsClass.ErrorTypes.NETWORK_ERROR) hls.startLoad();
        else {
          console.error('Playback failed', data.details);
          hls.destroy();
          if (hlsRef.current === hls) hlsRef.current = null;
        }
      });

      if (early) return;
      hls.loadSource(src);
      hls.attachMedia(video);
    });

    return () => {
      cancelled = true;
      aborted.abort();
      hlsRef.current?.destroy();
      hlsRef.current = null;
      setLevels([]);
      setLevelState(-1);
    };
  }, [videoRef, src]);

  const setLevel = useCallback((index: number) => {
    const hls = hlsRef.current;
    if (hls) {
      // currentLevel switches now (flushing the buffer); -1 hands the choice back to the bandwidth estimate.
      hls.currentLevel = index;
    }
    setLevelState(index);
  }, []);

  return { levels, level, setLevel };
}
