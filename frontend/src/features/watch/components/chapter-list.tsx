import { type Chapter, chapterAt, formatDuration } from '@hunktube/shared';
import { useId, type MouseEvent } from 'react';
import { useLocation } from 'react-router';

interface ChapterListProps {
  chapters: readonly Chapter[];
  currentTime: number;
  /** Moves the player to a chapter's start and plays. */
  onJump: (start: number) => void;
}

/**
 * The video's chapters under the player (issue #34, point 4): each a link to this page at its `?t=` (so it works
 * without JavaScript, opened in a new tab or copied), which, clicked here, moves the player instead of loading
 * the page. The one playing is marked `aria-current`.
 */
export function ChapterList({ chapters, currentTime, onJump }: ChapterListProps) {
  const headingId = useId();
  const { pathname, search } = useLocation();
  if (chapters.length === 0) return null;
  const playing = chapterAt(chapters, currentTime);
  const at = (start: number) => {
    const params = new URLSearchParams(search);
    params.set('t', String(start));
    return `${pathname}?${params}`;
  };
  const jump = (event: MouseEvent<HTMLAnchorElement>, start: number) => {
    // A new tab or window, or a download: the browser's own.
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onJump(start);
  };

  return (
    <nav className="chapters" aria-labelledby={headingId}>
      <h2 className="chapters__heading" id={headingId}>
        Chapters
      </h2>
      <ol className="chapters__list" role="list">
        {chapters.map((chapter) => (
          <li key={chapter.start}>
            <a className="chapters__link" href={at(chapter.start)} aria-current={chapter === playing ? 'true' : undefined} onClick={(event) => jump(event, chapter.start)}>
              <span className="chapters__time">{formatDuration(chapter.start)}</span>
              <span className="chapters__title">{chapter.title}</span>
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
