import { type Chapter, chapterAt, formatDuration } from '@hunktube/shared';
import { useState, type CSSProperties, type PointerEvent } from 'react';
import { cueAt, type StoryboardCue } from '../utils/storyboard';

interface SeekBarProps {
  currentTime: number;
  duration: number;
  cues: readonly StoryboardCue[];
  /** The video's chapters: marks on the bar, and the name of the one under the pointer in the preview. */
  chapters?: readonly Chapter[];
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
export function SeekBar({ currentTime, duration, cues, chapters = [], onSeek }: SeekBarProps) {
  const [hover, setHover] = useState<Hover | null>(null);
  const known = Number.isFinite(duration) && duration > 0;

  const track = (event: PointerEvent<HTMLDivElement>) => {
    if (!known) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const fraction = rect.width > 0 ? Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width)) : 0;
    setHover({ time: fraction * duration, fraction });
  };

  const cue = hover ? cueAt(cues, hover.time) : null;
  const hovered = hover ? chapterAt(chapters, hover.time) : null;
  const playing = chapterAt(chapters, currentTime);
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
          {hovered && <span className="seek-bar__chapter">{hovered.title}</span>}
          <span className="seek-bar__time">{formatDuration(hover.time)}</span>
        </div>
      )}
      {known && chapters.length > 0 && (
        <div className="seek-bar__marks" aria-hidden="true">
          {chapters.filter((chapter) => chapter.start > 0 && chapter.start < duration).map((chapter) => (
            <span key={chapter.start} className="seek-bar__mark" style={{ left: `${(chapter.start / duration) * 100}%` }} />
          ))}
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
        aria-valuetext={`${formatDuration(currentTime)} of ${formatDuration(known ? duration : null)}${playing ? `, ${playing.title}` : ''}`}
        onChange={(event) => onSeek(Number(event.target.value))}
      />
    </div>
  );
}
