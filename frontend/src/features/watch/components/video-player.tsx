import { formatDuration, PLAYER_POSTER_WIDTH, resumablePosition } from '@hunktube/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Site, Video } from '@/lib/api/types';
import { mediaUrl, resolveImageCopy, resolveImageUrl } from '@/lib/site';
import { useSecureUrl } from '../api/get-secure-url';
import { useStoryboard } from '../api/get-storyboard';
import { useHls } from '../hooks/use-hls';
import { SHORTCUT_LIST, usePlayerShortcuts } from '../hooks/use-player-shortcuts';
import {
  PLAYBACK_SPEEDS,
  readAutoAdvance,
  readPlayerPrefs,
  readResumePosition,
  writeAutoAdvance,
  writePlayerPrefs,
  writeResumePosition,
} from '../utils/storage';
import { Dialog } from '@/components/ui/dialog';
import {
  FullscreenIcon, KeyboardIcon, NextIcon, PauseIcon, PictureInPictureIcon, PlayIcon, PreviousIcon, TheaterIcon, VolumeIcon,
} from './icons';
import { ChapterList } from './chapter-list';
import { SeekBar } from './seek-bar';
import { useBrowserValue } from '@/lib/browser-value';
import { useOrigin } from '@/lib/origin';
import { useAdSlots, type PlayerAdPlacement } from '@/lib/ad-slots';

/** The early pre-roll's slot: empty in the server's markup and to React, whatever the early script puts in it. */
const NO_MARKUP = { __html: '' };

interface VideoPlayerProps {
  video: Video;
  title: string;
  site: Site | undefined;
  /** `?t=` from the address; wins over the remembered position. */
  startTime: number | null;
  /** Start playing at once (reached by Next or by automatic advance). */
  autoPlay: boolean;
  onPrevious: (() => void) | null;
  onNext: (() => void) | null;
  /** The first time playback starts on this page. */
  onFirstPlay: () => void;
  /** The media's own duration, once its metadata has loaded. */
  onDuration: (seconds: number) => void;
  /** Previous, Next and the autoplay switch; left out of the embeddable player, which is one video alone. */
  navigation?: boolean;
  /**
   * Where playback is, as this browser keeps it for resuming (whole seconds; null once finished): every few
   * seconds while playing, and at once (`settled`) on pause and at the end.
   */
  onProgress?: (position: number | null, settled: boolean) => void;
  /** The chapter list under the player (the watch page's; the embed has the marks on its seek bar only). */
  chapters?: boolean;
  /** Theater mode, which the page around the player lays out; without it (the embed) there is no such button or key. */
  theater?: { on: boolean; toggle: () => void };
}

const SAVE_EVERY_SECONDS = 5;
/** The player without ads (a page without the ad slots). */
const noBreakWanted = () => false;
/** A signed URL refused again this soon after a fresh one is a broken stream, not an expiry: stop asking. */
const MIN_REFRESH_INTERVAL_MS = 10_000;

export function VideoPlayer({
  video,
  title,
  site,
  startTime,
  autoPlay,
  onPrevious,
  onNext,
  onFirstPlay,
  onDuration,
  navigation = true,
  onProgress,
  chapters = false,
  theater,
}: VideoPlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const secure = useSecureUrl(video.stream_path);
  const storyboard = useStoryboard(site ? resolveImageUrl(video.storyboard, site.imageHost) : null);

  const [playing, setPlaying] = useState(false);
  const [currentTime, setCurrentTime] = useState(0);
  const [duration, setDuration] = useState(video.duration ?? 0);
  const [muted, setMuted] = useState(false);
  const [volume, setVolume] = useState(1);
  const [fullscreen, setFullscreen] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [helpOpen, setHelpOpen] = useState(false);
  // The captions shown (a language of video.captions): this device's last choice when the video has it (drawn
  // off by the server, then as stored), until one is chosen here.
  const storedCaptions = useBrowserValue(() => readPlayerPrefs().captions, null);
  const [chosenCaptions, setChosenCaptions] = useState<string | null | undefined>(undefined);
  const captionLang =
    chosenCaptions !== undefined ? chosenCaptions : video.captions.some((caption) => caption.lang === storedCaptions) ? storedCaptions : null;
  const lastCaptionLang = useRef<string | null>(null);
  const [pipSupported, setPipSupported] = useState(false);
  // This device's choice: known to the browser only (drawn on by the server, then as stored).
  const storedAutoAdvance = useBrowserValue(readAutoAdvance, true);
  const [chosenAutoAdvance, setAutoAdvance] = useState<boolean | null>(null);
  const autoAdvance = chosenAutoAdvance ?? storedAutoAdvance;

  // Ad breaks (docs/ads.md › "Web client"): a pre-roll before the content first plays, a post-roll at its end, a
  // pause ad when the viewer pauses; each at most once per page, and only where a zone may fill it. The post-roll's
  // and pause's zones are asked for once the content has started.
  const ads = useAdSlots();
  const useBreakWanted = ads?.useBreakWanted ?? noBreakWanted;
  const [contentStarted, setContentStarted] = useState(false);
  const wanted = {
    preroll: useBreakWanted('preroll', video.id),
    postroll: useBreakWanted('postroll', video.id, contentStarted),
    pause: useBreakWanted('pause', video.id, contentStarted),
  };
  const wantedRef = useRef(wanted);
  useEffect(() => {
    wantedRef.current = wanted;
  });
  // A video reached by Next or autoplay starts with its pre-roll, when one may be due.
  const [adBreak, setAdBreak] = useState<PlayerAdPlacement | null>(() => (autoPlay && wanted.preroll ? 'preroll' : null));
  const breakRef = useRef(adBreak);
  const breaksHad = useRef(new Set<PlayerAdPlacement>(adBreak ? [adBreak] : []));
  const breakDue = useCallback((placement: PlayerAdPlacement) => wantedRef.current[placement] && !breaksHad.current.has(placement), []);
  /** A video ad is playing over the player: the content's controls and keys wait. */
  const inLinearBreak = useCallback(() => breakRef.current !== null && breakRef.current !== 'pause', []);
  const startBreak = useCallback((placement: PlayerAdPlacement) => {
    breaksHad.current.add(placement);
    breakRef.current = placement;
    setAdBreak(placement);
  }, []);

  // Where the next attach of the stream starts, and whether it plays: the page's start at first, the current
  // position when an expired URL is replaced mid-session. An autoplay waits for its pre-roll; the stream loads meanwhile.
  const [initialTime] = useState(() => startTime ?? readResumePosition(video.id) ?? 0);
  const resume = useRef({ time: initialTime, play: autoPlay && !wanted.preroll });
  const playedOnce = useRef(false);
  const lastSaved = useRef(0);
  const lastRefresh = useRef(0);

  const src = secure.data && site ? mediaUrl(secure.data.secureUrl, video.cdn, site.mediaHosts) : null;

  const { levels, level, setLevel: setHlsLevel } = useHls(videoRef, src, {
    startPosition: () => resume.current.time,
    autoPlay: () => resume.current.play,
    onSourceExpired: () => {
      const element = videoRef.current;
      const now = Date.now();
      if (now - lastRefresh.current < MIN_REFRESH_INTERVAL_MS) {
        console.error('The stream was refused again with a fresh address');
        return;
      }
      lastRefresh.current = now;
      resume.current = { time: element?.currentTime ?? resume.current.time, play: element ? !element.paused : false };
      void secure.refetch();
    },
  });

  // This device's volume, mute and speed from the last video, once the element exists (the server draws defaults).
  useEffect(() => {
    const element = videoRef.current;
    if (!element) return;
    const prefs = readPlayerPrefs();
    element.volume = prefs.volume;
    element.muted = prefs.muted;
    element.defaultPlaybackRate = prefs.speed;
    element.playbackRate = prefs.speed;
    setSpeed(prefs.speed);
    lastCaptionLang.current = prefs.captions;
    setPipSupported(document.pictureInPictureEnabled === true && !element.disablePictureInPicture);
  }, []);

  // The quality chosen last, once the stream's renditions are known: the same label if this video has it.
  const qualityApplied = useRef(false);
  useEffect(() => {
    if (qualityApplied.current || levels.length === 0) return;
    qualityApplied.current = true;
    const { quality } = readPlayerPrefs();
    const match = quality ? levels.find((rendition) => rendition.label === quality) : undefined;
    if (match) setHlsLevel(match.index);
  }, [levels, setHlsLevel]);

  const setLevel = (index: number) => {
    setHlsLevel(index);
    writePlayerPrefs({ quality: levels.find((rendition) => rendition.index === index)?.label ?? null });
  };

  const changeSpeed = (rate: number) => {
    const element = videoRef.current;
    if (element) {
      element.defaultPlaybackRate = rate;
      element.playbackRate = rate;
    }
    setSpeed(rate);
    writePlayerPrefs({ speed: rate });
  };

  // The tracks' modes follow the choice (the element's own list: one per <track>, in video.captions' order).
  useEffect(() => showCaptions(videoRef.current, captionLang), [captionLang, video.captions]);

  const chooseCaptions = (lang: string | null) => {
    setChosenCaptions(lang);
    if (lang) lastCaptionLang.current = lang;
    writePlayerPrefs({ captions: lang });
  };
  const toggleCaptions = () => {
    if (captionLang) return chooseCaptions(null);
    const last = video.captions.find((caption) => caption.lang === lastCaptionLang.current);
    chooseCaptions((last ?? video.captions[0]).lang);
  };
  const origin = useOrigin();
  const captionUrls = video.captions.map((caption) => resolveImageUrl(caption.url, site?.imageHost) ?? caption.url);
  // Tracks from another origin (an image host elsewhere) load only as CORS requests.
  const crossOriginTracks = captionUrls.some((url) => new URL(url, origin).origin !== new URL(origin).origin);

  const togglePictureInPicture = useCallback(() => {
    const element = videoRef.current;
    if (!element) return;
    if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => {});
    else void element.requestPictureInPicture().catch(() => {});
  }, []);

  /** Plays the content, after its pre-roll when one is due. */
  const playContent = useCallback(() => {
    const element = videoRef.current;
    if (!element) return;
    if (breakDue('preroll')) return startBreak('preroll');
    resume.current.play = true;
    void element.play()?.catch(() => {});
  }, [breakDue, startBreak]);

  const togglePlay = useCallback(() => {
    const element = videoRef.current;
    if (!element || inLinearBreak()) return;
    if (element.paused || element.ended) playContent();
    else element.pause();
  }, [inLinearBreak, playContent]);

  const seekTo = useCallback((time: number) => {
    const element = videoRef.current;
    if (!element || inLinearBreak()) return;
    const end = Number.isFinite(element.duration) ? element.duration : Infinity;
    element.currentTime = Math.min(Math.max(0, time), end);
    setCurrentTime(element.currentTime);
  }, [inLinearBreak]);

  const playButtonRef = useRef<HTMLButtonElement>(null);
  // Whether the keyboard's focus was in the ad when it ended: it goes back to Play/Pause then.
  const refocus = useRef(false);
  useEffect(() => {
    if (adBreak !== null || !refocus.current) return;
    refocus.current = false;
    playButtonRef.current?.focus();
  }, [adBreak]);

  /** The break is over: the content starts after a pre-roll, the next video follows a post-roll (with autoplay on). */
  const breakOver = (placement: PlayerAdPlacement) => {
    refocus.current = frameRef.current?.querySelector('.ad-break')?.contains(document.activeElement) ?? false;
    breakRef.current = null;
    setAdBreak(null);
    if (placement === 'preroll') playContent();
    else if (placement === 'postroll') advance();
  };

  const toggleMute = useCallback(() => {
    const element = videoRef.current;
    if (element) element.muted = !element.muted;
  }, []);

  const toggleFullscreen = useCallback(() => {
    const frame = frameRef.current;
    if (!frame) return;
    if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => {});
    else void frame.requestFullscreen?.().catch(() => {});
  }, []);

  usePlayerShortcuts({
    togglePlay,
    toggleMute,
    toggleFullscreen,
    toggleTheater: theater?.toggle,
    toggleCaptions: video.captions.length > 0 ? toggleCaptions : undefined,
    seekBy: (seconds) => seekTo((videoRef.current?.currentTime ?? 0) + seconds),
    seekToFraction: (fraction) => {
      const end = videoRef.current?.duration;
      seekTo(fraction * (end !== undefined && Number.isFinite(end) && end > 0 ? end : duration));
    },
    changeVolume: (by) => {
      const element = videoRef.current;
      if (!element) return;
      element.volume = Math.round(Math.min(1, Math.max(0, element.volume + by)) * 100) / 100;
      element.muted = element.volume === 0;
    },
    next: navigation && onNext ? onNext : undefined,
    previous: navigation && onPrevious ? onPrevious : undefined,
    showHelp: () => setHelpOpen(true),
  });

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frameRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Positions near the end are not worth resuming (@hunktube/shared): the video counts as watched.
  const savePosition = (time: number, end: number, settled: boolean) => {
    const position = resumablePosition(time, Number.isFinite(end) ? end : null);
    writeResumePosition(video.id, position);
    lastSaved.current = time;
    onProgress?.(position, settled);
  };

  const advance = () => {
    if (autoAdvance && onNext) onNext();
  };

  const toggleAutoAdvance = () => {
    writeAutoAdvance(!autoAdvance);
    setAutoAdvance(!autoAdvance);
  };

  // The poster's WebP copy, as the server's head preloads it (PLAYER_POSTER_WIDTH).
  const poster = site ? resolveImageCopy(video.poster, site.imageHost, PLAYER_POSTER_WIDTH) : null;

  return (
    <>
    <div className="player" ref={frameRef}>
      <div className="player__stage" inert={adBreak !== null && adBreak !== 'pause'}>
        <video
          ref={videoRef}
          className="player__video"
          poster={poster ?? undefined}
          playsInline
          preload="metadata"
          crossOrigin={crossOriginTracks ? 'anonymous' : undefined}
          aria-label={title}
          onClick={togglePlay}
          onDoubleClick={toggleFullscreen}
          onPlay={(event) => {
            // Started some other way (media keys, picture in picture) while an ad is due or playing: the ad first.
            if (inLinearBreak() || breakDue('preroll')) {
              event.currentTarget.pause();
              if (breakDue('preroll')) startBreak('preroll');
              return;
            }
            if (breakRef.current === 'pause') {
              breakRef.current = null;
              setAdBreak(null);
            }
            setContentStarted(true);
            setPlaying(true);
            if (!playedOnce.current) {
              playedOnce.current = true;
              onFirstPlay();
            }
          }}
          onPause={(event) => {
            setPlaying(false);
            // Held back for its ad (onPlay): not a position worth keeping.
            if (inLinearBreak() || breakDue('preroll')) return;
            savePosition(event.currentTarget.currentTime, event.currentTarget.duration, true);
            // The viewer paused the content (the end pauses too, before its ended event).
            if (playedOnce.current && !event.currentTarget.ended && breakRef.current === null && breakDue('pause')) startBreak('pause');
          }}
          onTimeUpdate={(event) => {
            const { currentTime: time, duration: end } = event.currentTarget;
            setCurrentTime(time);
            if (Math.abs(time - lastSaved.current) >= SAVE_EVERY_SECONDS) savePosition(time, end, false);
          }}
          onLoadedMetadata={(event) => {
            const end = event.currentTarget.duration;
            if (Number.isFinite(end) && end > 0) {
              setDuration(end);
              onDuration(end);
            }
          }}
          onVolumeChange={(event) => {
            setMuted(event.currentTarget.muted);
            setVolume(event.currentTarget.volume);
            writePlayerPrefs({ volume: event.currentTarget.volume, muted: event.currentTarget.muted });
          }}
          onEnded={() => {
            setPlaying(false);
            writeResumePosition(video.id, null);
            onProgress?.(null, true);
            if (breakDue('postroll')) startBreak('postroll');
            else advance();
          }}
        >
          {video.captions.map((caption, i) => (
            <track key={caption.lang} kind="subtitles" src={captionUrls[i]} srcLang={caption.lang} label={caption.label} />
          ))}
        </video>
        {secure.isError && (
          <p className="player__message" role="alert">
            This video cannot be played right now.
          </p>
        )}
        {ads && adBreak === 'pause' && <ads.AdBreak key="pause" placement="pause" videoId={video.id} volume={volume} muted={muted} onDone={() => breakOver('pause')} />}
      </div>

      <div className="player__controls" inert={adBreak !== null && adBreak !== 'pause'}>
        <SeekBar currentTime={currentTime} duration={duration} cues={storyboard.data ?? []} chapters={video.chapters} onSeek={seekTo} />
        <div className="player__buttons">
          {navigation && (
            <button
              className="icon-button"
              type="button"
              aria-label="Previous video"
              disabled={!onPrevious}
              onClick={() => onPrevious?.()}
            >
              <PreviousIcon />
            </button>
          )}
          <button ref={playButtonRef} className="icon-button" type="button" aria-label={playing ? 'Pause' : 'Play'} onClick={togglePlay}>
            {playing ? <PauseIcon /> : <PlayIcon />}
          </button>
          {navigation && (
            <button
              className="icon-button"
              type="button"
              aria-label="Next video"
              disabled={!onNext}
              onClick={() => onNext?.()}
            >
              <NextIcon />
            </button>
          )}
          <button className="icon-button" type="button" aria-label={muted ? 'Unmute' : 'Mute'} onClick={toggleMute}>
            <VolumeIcon muted={muted || volume === 0} />
          </button>
          <input
            className="player__volume"
            type="range"
            aria-label="Volume"
            min={0}
            max={1}
            step={0.05}
            value={muted ? 0 : volume}
            onChange={(event) => {
              const element = videoRef.current;
              if (!element) return;
              element.volume = Number(event.target.value);
              element.muted = element.volume === 0;
            }}
          />
          <span className="player__time">
            {formatDuration(currentTime)} / {formatDuration(duration > 0 ? duration : null)}
          </span>
          <span className="player__spacer" />
          {navigation && (
            <label className="player__switch">
              <input type="checkbox" role="switch" checked={autoAdvance} onChange={toggleAutoAdvance} />
              <span>Autoplay</span>
            </label>
          )}
          <label className="player__quality">
            <span className="visually-hidden">Playback speed</span>
            <select value={speed} onChange={(event) => changeSpeed(Number(event.target.value))}>
              {PLAYBACK_SPEEDS.map((rate) => (
                <option key={rate} value={rate}>
                  {rate === 1 ? 'Normal speed' : `${rate}×`}
                </option>
              ))}
            </select>
          </label>
          {video.captions.length > 0 && (
            <label className="player__quality">
              <span className="visually-hidden">Captions</span>
              <select value={captionLang ?? ''} onChange={(event) => chooseCaptions(event.target.value || null)}>
                <option value="">CC off</option>
                {video.captions.map((caption) => (
                  <option key={caption.lang} value={caption.lang}>
                    {`CC: ${caption.label}`}
                  </option>
                ))}
              </select>
            </label>
          )}
          {/* There from the first paint (Auto until the stream's renditions are known), so nothing moves when they are. */}
          <label className="player__quality">
            <span className="visually-hidden">Quality</span>
            <select value={level} disabled={levels.length <= 1} onChange={(event) => setLevel(Number(event.target.value))}>
              <option value={-1}>Auto</option>
              {levels.map((rendition) => (
                <option key={rendition.index} value={rendition.index}>
                  {rendition.label}
                </option>
              ))}
            </select>
          </label>
          {pipSupported && (
            <button className="icon-button player__desktop" type="button" aria-label="Picture in picture" onClick={togglePictureInPicture}>
              <PictureInPictureIcon />
            </button>
          )}
          <button className="icon-button player__desktop" type="button" aria-label="Keyboard shortcuts" aria-haspopup="dialog" onClick={() => setHelpOpen(true)}>
            <KeyboardIcon />
          </button>
          {theater && (
            <button className="icon-button player__desktop" type="button" aria-label="Theater mode" aria-pressed={theater.on} onClick={theater.toggle}>
              <TheaterIcon active={theater.on} />
            </button>
          )}
          <button
            className="icon-button"
            type="button"
            aria-label={fullscreen ? 'Exit full screen' : 'Full screen'}
            onClick={toggleFullscreen}
          >
            <FullscreenIcon active={fullscreen} />
          </button>
        </div>
      </div>
      {/* A pre-roll that the page's first script starts when Play is pressed before the app answers shows here
          (features/ads/early-preroll.ts), until the break below takes it over: what is in it is not React's. */}
      <div className="player__early-ad" dangerouslySetInnerHTML={NO_MARKUP} suppressHydrationWarning />
      {ads && adBreak !== null && adBreak !== 'pause' && (
        <ads.AdBreak key={adBreak} placement={adBreak} videoId={video.id} volume={volume} muted={muted} onDone={() => breakOver(adBreak)} />
      )}
      <Dialog open={helpOpen} title="Keyboard shortcuts" onClose={() => setHelpOpen(false)}>
        <dl className="player__shortcuts">
          {SHORTCUT_LIST.filter(([keys]) => theater || keys !== 'T').map(([keys, action]) => (
            <div key={keys}>
              <dt>{keys}</dt>
              <dd>{action}</dd>
            </div>
          ))}
        </dl>
      </Dialog>
    </div>
    {chapters && (
      <ChapterList
        chapters={video.chapters}
        currentTime={currentTime}
        onJump={(start) => {
          seekTo(start);
          playContent();
        }}
      />
    )}
    </>
  );
}

/** Shows the element's text track in `lang` and no other (none for null). */
function showCaptions(element: HTMLVideoElement | null, lang: string | null): void {
  const tracks = element?.textTracks;
  if (!tracks) return;
  for (const track of Array.from(tracks)) track.mode = track.language === lang ? 'showing' : 'disabled';
}
