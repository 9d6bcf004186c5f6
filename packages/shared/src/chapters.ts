/*
 * A video's chapters (issue #34, point 4; api-contract.md › Discovery): moments an admin marks, each a start in
 * whole seconds and a title, in ascending order. The API validates them with these limits, the admin panel's
 * editor applies them, and the player, the chapter list and the JSON-LD read them alike.
 */

export const CHAPTERS_MAX = 50;
export const CHAPTER_TITLE_MAX_LENGTH = 100;

export interface Chapter {
  /** Whole seconds from the start of the video. */
  start: number;
  title: string;
}

/** The chapter playing at `seconds` (the last one starting at or before it), or null before the first. */
export function chapterAt<T extends Chapter>(chapters: readonly T[], seconds: number): T | null {
  let current: T | null = null;
  for (const chapter of chapters) {
    if (chapter.start > seconds) break;
    current = chapter;
  }
  return current;
}

/** Each chapter with where it ends: the next one's start, else the video's end (null when unknown). */
export function chapterSpans<T extends Chapter>(chapters: readonly T[], duration: number | null): (T & { end: number | null })[] {
  return chapters.map((chapter, i) => ({ ...chapter, end: i + 1 < chapters.length ? chapters[i + 1].start : duration }));
}
