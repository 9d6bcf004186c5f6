import { likedKey, readStorage, SCROLL_TARGET_KEY, writeStorage } from '@/lib/storage';

/** A like is remembered per video as liked_{id} = 'true'. */
export const isLikedLocally = (videoId: number) => readStorage('local', likedKey(videoId)) === 'true';
export const markLikedLocally = (videoId: number) => writeStorage('local', likedKey(videoId), 'true');
export const forgetLikedLocally = (videoId: number) => writeStorage('local', likedKey(videoId), null);

/** Where playback stopped, per video, to resume there: kept with the guest's Continue watching (lib). */
export { writeResumePosition } from '@/lib/continue-watching';
export { readResumePosition } from '@/lib/resume-position';

/** Whether the next video starts when one ends: on unless turned off. */
export const readAutoAdvance = () => readStorage('local', 'autoplay_next') !== 'false';
export const writeAutoAdvance = (on: boolean) => writeStorage('local', 'autoplay_next', String(on));

export const writeScrollTarget = (slug: string) => writeStorage('session', SCROLL_TARGET_KEY, slug);

/** What this device last chose in the player (lib: the ads' player starts with the same sound). */
export { DEFAULT_PLAYER_PREFS, PLAYBACK_SPEEDS, readPlayerPrefs, writePlayerPrefs, type PlayerPrefs } from '@/lib/player-prefs';
