import { describe, expect, it } from 'vitest';
import {
  normalizePlaylistTitle,
  PLAYLIST_TITLE_INVALID,
  PLAYLIST_TITLE_MAX_LENGTH,
  PLAYLIST_TITLE_MIN_LENGTH,
  PLAYLIST_TITLE_REQUIRED,
  validatePlaylistTitle,
} from './playlist-title.js';

describe('validatePlaylistTitle', () => {
  it('keeps the specification’s limits', () => {
    expect(PLAYLIST_TITLE_MIN_LENGTH).toBe(4);
    expect(PLAYLIST_TITLE_MAX_LENGTH).toBe(40);
  });

  it.each([
    'Gym!',
    'Road Trip',
    'Best of 2024',
    "Rock & Roll (Live)!",
    "Sam's faves, vol. 2?",
    'snake_case-and-dash',
    'Ünïcødé Playlist',
    'Плейлист',
    'お気に入り動画',
    'हिन्दी सूची',
    'abcd',
    'x'.repeat(40),
    '   padded title   ',
    `  ${'y'.repeat(40)}  `,
  ])('accepts %j', (title) => {
    expect(validatePlaylistTitle(title)).toBeNull();
  });

  it.each(['', ' ', '   ', '\t\n '])('asks for a title when %j is all there is', (title) => {
    expect(validatePlaylistTitle(title)).toBe(PLAYLIST_TITLE_REQUIRED);
  });

  it.each([
    ['three characters', 'abc'],
    ['three characters once trimmed', '  abc  '],
    ['41 characters', 'x'.repeat(41)],
    ['an angle bracket', 'my <b>list</b>'],
    ['an emoji', 'party 🎉 time'],
    ['a slash', 'this/that'],
    ['a tab inside', 'road\ttrip'],
    ['a newline inside', 'road\ntrip'],
    ['a semicolon', 'drop; table'],
    ['a hash', '#1 hits'],
  ])('refuses %s', (_case, title) => {
    expect(validatePlaylistTitle(title)).toBe(PLAYLIST_TITLE_INVALID);
  });

  it('counts characters, not UTF-16 units', () => {
    // Four letters outside the Basic Multilingual Plane: eight UTF-16 units, four characters.
    expect(validatePlaylistTitle('𝐀𝐁𝐂𝐃')).toBeNull();
    expect(validatePlaylistTitle('𝐀𝐁𝐂')).toBe(PLAYLIST_TITLE_INVALID);
    expect(validatePlaylistTitle('𝐀'.repeat(40))).toBeNull();
    expect(validatePlaylistTitle('𝐀'.repeat(41))).toBe(PLAYLIST_TITLE_INVALID);
  });

  it('stores the title trimmed', () => {
    expect(normalizePlaylistTitle('  Road Trip \n')).toBe('Road Trip');
  });
});
