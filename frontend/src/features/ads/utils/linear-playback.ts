import type { AdSlot } from '../api/types';
import { postAdEvent, type AdEvent } from '../api/post-ad-event';
import { attachAdMedia } from './ad-media';
import { recordImpression } from './impressions';
import { VAST_ERROR, type VastAnswer } from './vast';

/** The creative must be playing this long after it was asked to play, else it is given up (VAST error 402). */
export const MEDIA_START_TIMEOUT_MS = 5000;

export type LinearAnswer = Extract<VastAnswer, { kind: 'linear' }>;

/** What the ad's controls show: where it is, how long it is, whether it is muted. */
export interface PlaybackState {
  time: number;
  duration: number;
  muted: boolean;
}

/**
 * One linear creative's playback (a pre-roll or a post-roll), apart from any page or component: its own `<video>`
 * element, which may load before it is shown (the page's first script prepares a pre-roll: src/early.ts, then
 * `./early-preroll`) and moves into the break's component when the app takes it over; the tracking (impression,
 * quartiles, complete, skip, click and error, each once, to the ad's server and to ours); and the end, whatever
 * comes first (the creative's end, Skip, an error, the start's time limit), told once.
 */
export class LinearPlayback {
  readonly video: HTMLVideoElement;
  private state: PlaybackState;
  private readonly listeners = new Set<() => void>();
  private readonly sent = new Set<AdEvent>();
  private release: (() => void) | null = null;
  private attaching = false;
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  private playing = false;
  private over = false;
  private whenOver: (() => void) | null = null;
  /** Resolved once the element has its first frame, or the creative has ended without one. */
  readonly firstFrame: Promise<void>;
  private framed!: () => void;

  constructor(
    readonly zone: AdSlot,
    readonly vast: LinearAnswer,
    sound: { volume: number; muted: boolean },
  ) {
    this.state = { time: 0, duration: vast.duration, muted: sound.muted };
    this.firstFrame = new Promise((resolve) => {
      this.framed = resolve;
    });
    const video = document.createElement('video');
    video.addEventListener('loadeddata', () => this.framed());
    video.className = 'ad-break__video';
    video.playsInline = true;
    video.preload = 'auto';
    video.setAttribute('aria-hidden', 'true');
    video.volume = sound.volume;
    video.muted = sound.muted;
    video.addEventListener('playing', () => {
      if (this.playing) return;
      this.playing = true;
      clearTimeout(this.startTimer);
      this.once('impression', () => vast.tracker.trackImpression());
      recordImpression(zone.id);
    });
    video.addEventListener('loadedmetadata', () => {
      const end = video.duration;
      if (!Number.isFinite(end) || end <= 0) return;
      this.set({ duration: end });
      // A creative whose VAST gives no usable duration: the quartiles are the file's.
      if (!(vast.duration > 0)) vast.tracker.setDuration(end);
    });
    video.addEventListener('timeupdate', () => {
      const now = video.currentTime;
      this.set({ time: now });
      if (now > 0) vast.tracker.setProgress(now);
    });
    video.addEventListener('ended', () => {
      this.once('complete', () => vast.tracker.complete());
      this.end();
    });
    video.addEventListener('error', () => this.fail(VAST_ERROR.mediaError));
    this.video = video;
  }

  /** Whether the creative has ended (played out, skipped or failed). */
  get ended(): boolean {
    return this.over;
  }

  /** Loads the creative into the element (at once: its first frame is ready by the time it is shown). */
  load(): void {
    if (this.release || this.attaching || this.over) return;
    this.attaching = true;
    void attachAdMedia(this.video, this.vast.media, () => this.fail(VAST_ERROR.mediaError)).then((detach) => {
      this.attaching = false;
      if (this.over) return detach();
      this.release = detach;
    });
  }

  /**
   * Plays the creative (loading it first if need be); given up when it has not started within
   * MEDIA_START_TIMEOUT_MS. A browser that refuses to play with sound (no gesture of the visitor's yet) may still
   * play it muted.
   */
  play(): void {
    if (this.over) return;
    this.load();
    if (!this.playing && this.startTimer === undefined) {
      this.startTimer = setTimeout(() => {
        if (!this.playing) this.fail(VAST_ERROR.mediaTimeout);
      }, MEDIA_START_TIMEOUT_MS);
    }
    void this.video.play()?.catch(() => {
      if (this.over) return;
      this.video.muted = true;
      this.set({ muted: true });
      return this.video.play()?.catch(() => this.fail(VAST_ERROR.linear));
    });
  }

  /** Lets go of the media (the component that showed it is gone); `play` loads it again. */
  unload(): void {
    clearTimeout(this.startTimer);
    this.startTimer = undefined;
    this.release?.();
    this.release = null;
  }

  skip(): void {
    this.once('skip', () => this.vast.tracker.skip());
    this.end();
  }

  /** The visitor opened the click-through. */
  clicked(): void {
    this.once('click', () => this.vast.tracker.click());
  }

  toggleMute(): void {
    this.video.muted = !this.video.muted;
    this.set({ muted: this.video.muted });
  }

  /** Who hears the end (once): at once when it has already come. */
  onEnd(listener: () => void): void {
    this.whenOver = listener;
    if (this.over) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): PlaybackState => this.state;

  private fail(code: number): void {
    if (this.over) return;
    this.once('error', () => this.vast.tracker.error({ ERRORCODE: code }));
    this.end();
  }

  private end(): void {
    if (this.over) return;
    this.over = true;
    this.framed();
    this.video.pause();
    this.unload();
    this.whenOver?.();
  }

  /** Each of our events and the tracker's is sent once (the tracker itself keeps start and the quartiles to once). */
  private once(event: AdEvent, track: () => void): void {
    if (this.sent.has(event)) return;
    this.sent.add(event);
    track();
    postAdEvent(this.zone.id, event);
  }

  private set(change: Partial<PlaybackState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}
