import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PLAYER_PREFS, readPlayerPrefs, writePlayerPrefs } from './storage';

describe('the player’s remembered choices', () => {
  beforeEach(() => localStorage.clear());

  it('reads the defaults on a device that chose nothing', () => {
    expect(readPlayerPrefs()).toEqual(DEFAULT_PLAYER_PREFS);
  });

  it('keeps each choice beside the others', () => {
    writePlayerPrefs({ volume: 0.4 });
    writePlayerPrefs({ speed: 1.5 });
    writePlayerPrefs({ quality: '720p', muted: true });
    writePlayerPrefs({ theater: true });
    writePlayerPrefs({ captions: 'pt-BR' });
    expect(readPlayerPrefs()).toEqual({ volume: 0.4, muted: true, speed: 1.5, quality: '720p', theater: true, captions: 'pt-BR' });
    writePlayerPrefs({ quality: null });
    expect(readPlayerPrefs().quality).toBeNull();
  });

  it('reads what is not a valid choice as the default, each on its own', () => {
    localStorage.setItem('player_prefs', JSON.stringify({ volume: 7, muted: 'yes', speed: 3, quality: '<script>', theater: 'on', captions: '"><x' }));
    expect(readPlayerPrefs()).toEqual(DEFAULT_PLAYER_PREFS);
    localStorage.setItem('player_prefs', JSON.stringify({ volume: 0, speed: 0.5 }));
    expect(readPlayerPrefs()).toEqual({ ...DEFAULT_PLAYER_PREFS, volume: 0, speed: 0.5 });
    localStorage.setItem('player_prefs', 'not json');
    expect(readPlayerPrefs()).toEqual(DEFAULT_PLAYER_PREFS);
  });
});
