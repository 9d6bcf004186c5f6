import { likedKey, readStorage, SCROLL_TARGET_KEY, writeStorage } from '@/lib/storage';

/** A like is remembered per video as liked_{id} = 'true'. */
export const isLikedLocally = (videoId: number) => readStorage('local', likedKey(videoId)) === 'true';
export const markLikedLocally = (videoId: number) => writeStorage('local', likedKey(videoId), 'true');
export const forgetLikedLocally = (videoId: number) => writeStorage('local', likedKey(videoId), null);

/** Where playback stopped, per video, to resume there. */
export function readResumePosition(videoId: number): number | null {
  const value = Number(readStorage('local', `resume_${videoId}`));
  return Number.isFinite(value) && value > 0 ? value : null;
}
export const writeResumePosition = (videoId: number, seconds: number | null) =>
  writeStorage('local', `resume_${videoId}`, seconds === null ? null : String(Math.floor(seconds)));

/** Whether the next video starts when one ends: on unless turned off. */
export const readAutoAdvance = () => readStorage('local', 'autoplay_next') !== 'false';
export const writeAutoAdvance = (on: boolean) => writeStorage('local', 'autoplay_next', String(on));

export const writeScrollTarget = (slug: string) => writeStorage('session', SCROLL_TARGET_KEY, slug);
