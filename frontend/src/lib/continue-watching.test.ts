import { beforeEach, describe, expect, it } from 'vitest';
import { forgetGuestProgress, guestContinueEntries, parseContinueIndex, readContinueIndex, rememberGuestProgress } from './continue-watching';

const index = () => parseContinueIndex(readContinueIndex());

beforeEach(() => window.localStorage.clear());

describe('a guest’s Continue watching index', () => {
  it('puts the video last watched first, once, and drops a finished one', () => {
    rememberGuestProgress(1, 30, 100);
    rememberGuestProgress(2, 40, 200);
    rememberGuestProgress(1, 35, 300);
    expect(index()).toEqual([{ id: 1, at: 300 }, { id: 2, at: 200 }]);
    rememberGuestProgress(2, null, 400);
    expect(index()).toEqual([{ id: 1, at: 300 }]);
    rememberGuestProgress(1, null, 500);
    expect(window.localStorage.getItem('continue_watching')).toBeNull();
  });

  it('keeps at most 24 videos, the most recent', () => {
    for (let id = 1; id <= 30; id += 1) rememberGuestProgress(id, 10, id);
    expect(index()).toHaveLength(24);
    expect(index()[0]).toEqual({ id: 30, at: 30 });
    expect(index()[23]).toEqual({ id: 7, at: 7 });
  });

  it('reads what a browser may hold under the key without failing: not JSON, not a list, bad or repeated entries', () => {
    for (const raw of ['{not json', '"text"', '{}', 'null']) expect(parseContinueIndex(raw)).toEqual([]);
    expect(parseContinueIndex(JSON.stringify([{ id: 3, at: 1 }, { id: 0, at: 1 }, { id: 'x', at: 1 }, null, { id: 4 }, { id: 3, at: 2 }, { id: 5, at: 9 }]))).toEqual([
      { id: 3, at: 1 },
      { id: 5, at: 9 },
    ]);
  });

  it('pairs each entry with its resume position, skipping those that have none', () => {
    rememberGuestProgress(1, 30, 1);
    rememberGuestProgress(2, 40, 2);
    window.localStorage.setItem('resume_2', '40');
    expect(guestContinueEntries(readContinueIndex())).toEqual([{ id: 2, position: 40 }]);
  });

  it('forgets videos on request', () => {
    rememberGuestProgress(1, 30, 1);
    rememberGuestProgress(2, 40, 2);
    rememberGuestProgress(3, 40, 3);
    forgetGuestProgress([1, 3, 99]);
    expect(index()).toEqual([{ id: 2, at: 2 }]);
  });
});
