import { reorderedVideoIds, type PlaylistEntry } from './playlist-order';

const shown = (...ids: number[]): PlaylistEntry[] => ids.map((videoId) => ({ videoId, visible: true }));

describe('reorderedVideoIds', () => {
  it('accepts any permutation of the shown videos', () => {
    expect(reorderedVideoIds(shown(1, 2, 3), [3, 1, 2])).toEqual([3, 1, 2]);
    expect(reorderedVideoIds(shown(1, 2, 3), [1, 2, 3])).toEqual([1, 2, 3]);
    expect(reorderedVideoIds([], [])).toEqual([]);
  });

  it.each([
    ['a missing video', [3, 1]],
    ['an extra video', [3, 1, 2, 4]],
    ['a duplicate in place of another', [3, 1, 1]],
    ['a duplicate on top of all', [3, 1, 2, 2]],
    ['nothing at all', []],
  ])('refuses %s', (_case, requested) => {
    expect(reorderedVideoIds(shown(1, 2, 3), requested)).toBeNull();
  });

  it('keeps unpublished videos, which the client cannot see, after the others in their order', () => {
    const current = [
      { videoId: 7, visible: false },
      { videoId: 1, visible: true },
      { videoId: 5, visible: false },
      { videoId: 2, visible: true },
    ];
    expect(reorderedVideoIds(current, [2, 1])).toEqual([2, 1, 7, 5]);
    expect(reorderedVideoIds(current, [2, 1, 7])).toBeNull();
  });
});
