import { describe, expect, it } from 'vitest';
import { makeVideo } from '@/testing/data';
import { contextSearch, neighboursIn, parseWatchContext } from './watch-context';

describe('parseWatchContext', () => {
  it.each([
    ['?context=playlist&playlist=3', { kind: 'playlist', playlistId: 3 }],
    ['?context=watch-later', { kind: 'watch-later' }],
    ['', { kind: 'default' }],
    ['?context=playlist', { kind: 'default' }],
    ['?context=playlist&playlist=abc', { kind: 'default' }],
    ['?context=playlist&playlist=0', { kind: 'default' }],
    ['?context=elsewhere', { kind: 'default' }],
  ])('reads %j', (search, expected) => {
    expect(parseWatchContext(new URLSearchParams(search))).toEqual(expected);
  });

  it('writes a context back as the same query string', () => {
    expect(contextSearch({ kind: 'playlist', playlistId: 3 })).toBe('?context=playlist&playlist=3');
    expect(contextSearch({ kind: 'watch-later' })).toBe('?context=watch-later');
    expect(contextSearch({ kind: 'default' })).toBe('');
  });
});

describe('neighboursIn', () => {
  const list = [makeVideo({ id: 1 }), makeVideo({ id: 2 }), makeVideo({ id: 3 })];

  it('gives the videos either side of the current one', () => {
    expect(neighboursIn(list, 2)).toEqual({ previous: 1, next: 3 });
  });

  it('has no previous for the first and no next for the last', () => {
    expect(neighboursIn(list, 1).previous).toBeNull();
    expect(neighboursIn(list, 3).next).toBeNull();
  });

  it('has neither when the video is not in the list', () => {
    expect(neighboursIn(list, 9)).toEqual({ previous: null, next: null });
  });
});
