import { formatDuration } from '@hunktube/shared';
import { useState, type CSSProperties, type PointerEvent } from 'react';
import { cueAt, type StoryboardCue } from '../utils/storyboard';

interface SeekBarProps {
  currentTime: number;
  duration: number;
  cues: readonly StoryboardCue[];
  onSeek: (time: number) => void;
}

interface Hover {
  time: number;
  /** Position over the bar, 0 to 1. */
  fraction: number;
}

/**
 * The seek slider. Hovering it (or dragging a finger along it) shows the storyboard tile and the time at that
 * point, positioned over the bar and kept inside it.
 */
export function SeekBar({ currentTime, duration, cues, onSeek }: SeekBarProps) {
  const [hover, setHover] = useState<Hover | null>(null);
  const known = Number.isFinite(duration) && duration > 0;

  const track = (event: PointerEvent<HTMLDivElement>) => {
    if (!known) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const fraction = rect.width > 0 ? Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width)) : 0;
    setHover({ time: fraction * duration, fraction });
  };

  const cue = hover ? cueAt(cues, hover.time) : null;
  const played = known ? Math.min(100, (currentTime / duration) * 100) : 0;

  return (
    <div
      className="seek-bar"
      data-testid="seek-bar"
      onPointerMove={track}
      onPointerDown={track}
      onPointerLeave={() => setHover(null)}
      style={{ '--played': `${played}%` } as CSSProperties}
    >
      {hover && (
        <div
          className="seek-bar__preview"
          role="tooltip"
          style={{ '--at': hover.fraction } as CSSProperties}
        >
          {cue && (
            <div
              className="seek-bar__tile"
              data-testid="storyboard-tile"
              style={{
                width: cue.width,
                height: cue.height,
                backgroundImage: `url("${cue.url}")`,
                backgroundPosition: `-${cue.x}px -${cue.y}px`,
              }}
            />
          )}
          <span className="seek-bar__time">{formatDuration(hover.time)}</span>
        </div>
      )}
      <input
        className="seek-bar__input"
        type="range"
        aria-label="Seek"
        min={0}
        max={known ? duration : 0}
        step="any"
        value={known ? Math.min(currentTime, duration) : 0}
        disabled={!known}
        aria-valuetext={`${formatDuration(currentTime)} of ${formatDuration(known ? duration : null)}`}
        onChange={(event) => onSeek(Number(event.target.value))}
      />
    </div>
  );
}
