import { useEffect, useRef } from 'react';

export interface PlayerShortcuts {
  togglePlay: () => void;
  seekBy: (seconds: number) => void;
  /** Jumps to a fraction of the video (0 to 0.9: the keys 0–9). */
  seekToFraction: (fraction: number) => void;
  /** Changes the volume by this much (−1 to 1), unmuting. */
  changeVolume: (by: number) => void;
  toggleFullscreen: () => void;
  toggleMute: () => void;
  /** C: captions on (the language chosen last, else the first) or off; absent for a video without captions. */
  toggleCaptions?: () => void;
  /** T: theater mode; absent where the player has no page around it (the embed). */
  toggleTheater?: () => void;
  /** Shift+N and Shift+P; absent where there is no next or previous video. */
  next?: () => void;
  previous?: () => void;
  /** `?`: the dialog that lists these keys. */
  showHelp: () => void;
}

/** The keys, as the help dialog lists them (docs/web-client.md › "Player"). */
export const SHORTCUT_LIST: [keys: string, action: string][] = [
  ['Space or K', 'Play or pause'],
  ['J / L', 'Back or forward 10 seconds'],
  ['← / →', 'Back or forward 5 seconds'],
  ['↑ / ↓', 'Volume up or down'],
  ['0–9', 'Jump to 0 %–90 % of the video'],
  ['M', 'Mute or unmute'],
  ['F', 'Full screen'],
  ['C', 'Captions on or off'],
  ['T', 'Theater mode'],
  ['Shift+N / Shift+P', 'Next or previous video'],
  ['?', 'This list'],
];

/** Controls that handle these keys themselves: typing, choosing, or pressing a focused button. */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('input, textarea, select, [role="dialog"]')) return true;
  return (key === ' ' || key === 'Enter') && Boolean(target.closest('button, a, [role="button"], [role="switch"]'));
}

/**
 * The player's keys, anywhere on the page (SHORTCUT_LIST). Ignored while typing in a field, inside a dialog, and
 * with Ctrl, Alt or Meta held; Shift only where the list names it.
 */
export function usePlayerShortcuts(shortcuts: PlayerShortcuts): void {
  const ref = useRef(shortcuts);
  useEffect(() => {
    ref.current = shortcuts;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) return;
      if (ownsKey(event.target, event.key)) return;
      const on = ref.current;
      const shifted: Record<string, (() => void) | undefined> = { N: on.next, P: on.previous, '?': on.showHelp };
      const plain: Record<string, () => void> = {
        ' ': () => on.togglePlay(),
        k: () => on.togglePlay(),
        j: () => on.seekBy(-10),
        l: () => on.seekBy(10),
        ArrowLeft: () => on.seekBy(-5),
        ArrowRight: () => on.seekBy(5),
        ArrowUp: () => on.changeVolume(0.1),
        ArrowDown: () => on.changeVolume(-0.1),
        f: () => on.toggleFullscreen(),
        m: () => on.toggleMute(),
        ...(on.toggleTheater ? { t: on.toggleTheater } : {}),
        ...(on.toggleCaptions ? { c: on.toggleCaptions } : {}),
      };
      let action: (() => void) | undefined;
      if (event.key === '?') action = shifted['?'];
      else if (event.shiftKey) action = event.key.length === 1 ? shifted[event.key.toUpperCase()] : undefined;
      else if (/^[0-9]$/.test(event.key)) action = () => on.seekToFraction(Number(event.key) / 10);
      else action = plain[event.key.length === 1 ? event.key.toLowerCase() : event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
