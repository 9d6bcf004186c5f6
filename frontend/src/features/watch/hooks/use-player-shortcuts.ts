import { useEffect, useRef } from 'react';

export interface PlayerShortcuts {
  togglePlay: () => void;
  seekBy: (seconds: number) => void;
  toggleFullscreen: () => void;
  toggleMute: () => void;
}

/** Controls that handle these keys themselves: typing, choosing, or pressing a focused button. */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('input, textarea, select, [role="dialog"]')) return true;
  return (key === ' ' || key === 'Enter') && Boolean(target.closest('button, a, [role="button"], [role="switch"]'));
}

/**
 * The player's keys, anywhere on the page: space or k play/pause, j and l −/+10 s, ← and → −/+5 s, f full screen,
 * m mute. Ignored while typing in a field, inside a dialog, and with Ctrl, Alt or Meta held.
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
      const actions: Record<string, () => void> = {
        ' ': () => ref.current.togglePlay(),
        k: () => ref.current.togglePlay(),
        j: () => ref.current.seekBy(-10),
        l: () => ref.current.seekBy(10),
        ArrowLeft: () => ref.current.seekBy(-5),
        ArrowRight: () => ref.current.seekBy(5),
        f: () => ref.current.toggleFullscreen(),
        m: () => ref.current.toggleMute(),
      };
      const action = actions[event.key.length === 1 ? event.key.toLowerCase() : event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
