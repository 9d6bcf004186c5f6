import { describe, expect, it } from 'vitest';
import { chapterAt, chapterSpans } from './chapters.js';

const chapters = [
  { start: 0, title: 'Intro' },
  { start: 60, title: 'Pool' },
  { start: 300, title: 'Shower' },
];

describe('chapters', () => {
  it('finds the chapter playing at a time: the last one started', () => {
    expect(chapterAt(chapters, 0)?.title).toBe('Intro');
    expect(chapterAt(chapters, 59.9)?.title).toBe('Intro');
    expect(chapterAt(chapters, 60)?.title).toBe('Pool');
    expect(chapterAt(chapters, 10_000)?.title).toBe('Shower');
    expect(chapterAt([{ start: 30, title: 'Late' }], 10)).toBeNull();
    expect(chapterAt([], 10)).toBeNull();
  });

  it('ends each chapter where the next starts, and the last at the end of the video', () => {
    expect(chapterSpans(chapters, 420).map((c) => [c.start, c.end])).toEqual([[0, 60], [60, 300], [300, 420]]);
    expect(chapterSpans(chapters, null).at(-1)?.end).toBeNull();
  });
});
