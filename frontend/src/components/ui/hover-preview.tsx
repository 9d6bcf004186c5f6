import { useEffect, useRef, useState, type MouseEvent, type PointerEvent } from 'react';

/** A pointer resting this long on a card starts its preview; passing over a grid starts nothing. */
export const HOVER_DELAY_MS = 250;
/** A touch held this long starts the preview instead of opening the video. */
export const LONG_PRESS_MS = 450;

function previewsWanted(): boolean {
  if (typeof window === 'undefined') return false;
  const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData ?? false;
  return !reducedMotion && !saveData;
}

/**
 * When a card's hover clip plays: after a short rest of a mouse pointer, or on a long press of a finger (the
 * click that ends a long press is swallowed, so the press previews rather than navigates). Off for visitors who
 * ask for reduced motion or data saving.
 */
export function useHoverPreview(enabled: boolean) {
  const [active, setActive] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const longPressed = useRef(false);
  const hovering = useRef(false);

  const clear = () => window.clearTimeout(timer.current);
  useEffect(() => clear, []);

  if (!enabled) return { active: false, handlers: {} };

  const start = (delay: number, onStart?: () => void) => {
    clear();
    if (!previewsWanted()) return;
    timer.current = window.setTimeout(() => {
      onStart?.();
      setActive(true);
    }, delay);
  };
  const stop = () => {
    clear();
    setActive(false);
  };

  return {
    active,
    handlers: {
      onPointerEnter: (event: PointerEvent) => {
        if (event.pointerType !== 'mouse') return;
        hovering.current = true;
        start(HOVER_DELAY_MS);
      },
      // A card that appears under a resting pointer (a new page of results) gets no enter event: the first
      // movement over it counts as one.
      onPointerMove: (event: PointerEvent) => {
        if (event.pointerType !== 'mouse' || hovering.current) return;
        hovering.current = true;
        start(HOVER_DELAY_MS);
      },
      onPointerLeave: (event: PointerEvent) => {
        if (event.pointerType !== 'mouse') return;
        hovering.current = false;
        stop();
      },
      onPointerDown: (event: PointerEvent) => {
        if (event.pointerType === 'touch') {
          longPressed.current = false;
          start(LONG_PRESS_MS, () => (longPressed.current = true));
        }
      },
      onPointerUp: (event: PointerEvent) => {
        if (event.pointerType === 'touch' && !longPressed.current) clear();
      },
      onPointerCancel: stop,
      onClickCapture: (event: MouseEvent) => {
        if (!longPressed.current) return;
        longPressed.current = false;
        event.preventDefault();
        event.stopPropagation();
      },
      // A long press on a link opens the browser's context menu on Android; while previewing, it would cover the clip.
      onContextMenu: (event: MouseEvent) => {
        if (longPressed.current || active) event.preventDefault();
      },
    },
  };
}

/** The muted clip over a card's thumbnail; it shows once it actually plays, so a slow load never blanks the image. */
export function HoverPreview({ src }: { src: string }) {
  const [playing, setPlaying] = useState(false);
  return (
    <video
      className={`thumbnail__preview${playing ? ' thumbnail__preview--playing' : ''}`}
      src={src}
      muted
      loop
      autoPlay
      playsInline
      preload="auto"
      aria-hidden="true"
      tabIndex={-1}
      onPlaying={() => setPlaying(true)}
      data-testid="hover-preview"
    />
  );
}
