import { readStorage } from './storage';

// Its own module, importing only the storage helpers, because a watch page's first script reads it before the
// app (src/early.ts); the rest of "Continue watching" is in continue-watching.ts.

/** Where playback of a video stopped on this browser, to resume there (whole seconds). */
export const resumeKey = (videoId: number) => `resume_${videoId}`;

export function readResumePosition(videoId: number): number | null {
  const value = Number(readStorage('local', resumeKey(videoId)));
  return Number.isFinite(value) && value > 0 ? value : null;
}
