import { describe, expect, it } from 'vitest';
import { resumablePosition, RESUME_END_MARGIN_SECONDS } from './continue-watching.js';

describe('resumablePosition', () => {
  it('keeps a position inside the video, in whole seconds', () => {
    expect(resumablePosition(61.9, 600)).toBe(61);
    expect(resumablePosition(1, 600)).toBe(1);
    expect(resumablePosition(600 - RESUME_END_MARGIN_SECONDS - 0.5, 600)).toBe(594);
  });

  it('drops a video not started or finished', () => {
    expect(resumablePosition(0, 600)).toBeNull();
    expect(resumablePosition(0.9, 600)).toBeNull();
    expect(resumablePosition(600 - RESUME_END_MARGIN_SECONDS, 600)).toBeNull();
    expect(resumablePosition(700, 600)).toBeNull();
  });

  it('keeps any position while the duration is unknown, and refuses what is not a number', () => {
    expect(resumablePosition(5000, null)).toBe(5000);
    expect(resumablePosition(30, 0)).toBe(30);
    expect(resumablePosition(Number.NaN, 600)).toBeNull();
    expect(resumablePosition(Infinity, null)).toBeNull();
  });
});
