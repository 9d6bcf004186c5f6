import { type Chapter, CHAPTER_TITLE_MAX_LENGTH, CHAPTERS_MAX, formatDuration } from '@hunktube/shared';
import { useId, useRef } from 'react';

interface EditVideoChaptersProps {
  videoId: number;
  /** The video's chapters in the panel's local copy. */
  chapters: Chapter[];
  /** The video's duration, when known: the bound of a chapter's start. */
  duration: number | null;
  onChange: (chapters: Chapter[]) => void;
}

/**
 * The video's chapters (issue #34, point 4): a start in seconds and a title per row, kept in order of start, with
 * the video's own player above them (its embed page, same origin, read for its position) so that "Mark here"
 * adds a chapter where the admin paused. Stays local until Save Changes; the API checks the rest (one chapter a
 * second, none past the end).
 */
export function EditVideoChapters({ videoId, chapters, duration, onChange }: EditVideoChaptersProps) {
  const id = useId();
  const preview = useRef<HTMLIFrameElement>(null);
  const titles = useRef(new Map<number, HTMLInputElement>());
  const full = chapters.length >= CHAPTERS_MAX;

  /** Where the preview's player is, in whole seconds (0 when it has not loaded). */
  const position = () => {
    const video = preview.current?.contentDocument?.querySelector('video');
    return video && Number.isFinite(video.currentTime) ? Math.floor(video.currentTime) : 0;
  };

  const add = (start: number) => {
    if (full) return;
    const next = [...chapters, { start, title: '' }].sort((a, b) => a.start - b.start);
    onChange(next);
    // The new row's title, once drawn, to type its name.
    const row = next.findIndex((chapter) => chapter.start === start && chapter.title === '');
    requestAnimationFrame(() => titles.current.get(row)?.focus());
  };
  const change = (index: number, chapter: Chapter) => onChange(chapters.map((current, i) => (i === index ? chapter : current)));
  const remove = (index: number) => onChange(chapters.filter((_, i) => i !== index));
  // Reordered when a start is left, not while it is typed (the row would move under the cursor).
  const reorder = () => onChange([...chapters].sort((a, b) => a.start - b.start));

  return (
    <fieldset className="edit-video__chapters edit-video__wide" aria-describedby={`${id}-hint`}>
      <legend>Chapters</legend>
      <p className="edit-video__hint" id={`${id}-hint`}>
        Play the video, pause where a scene starts and choose Mark here, then name it. At most {CHAPTERS_MAX}; saved
        with Save Changes.
      </p>
      <iframe ref={preview} className="edit-video__preview" src={`/embed/${videoId}`} title="Video preview" loading="lazy" />
      {chapters.length > 0 && (
        <ol className="edit-video__chapter-list" role="list">
          {chapters.map((chapter, index) => (
            <li className="edit-video__chapter" key={index}>
              <div className="field">
                <label htmlFor={`${id}-start-${index}`}>Chapter start (seconds)</label>
                <input
                  id={`${id}-start-${index}`}
                  type="number"
                  inputMode="numeric"
                  required
                  min={0}
                  max={duration !== null ? Math.max(0, duration - 1) : 86_400}
                  step={1}
                  value={Number.isNaN(chapter.start) ? '' : chapter.start}
                  onChange={(event) => change(index, { ...chapter, start: event.target.value === '' ? Number.NaN : Number(event.target.value) })}
                  onBlur={reorder}
                />
                <span className="edit-video__chapter-time" aria-hidden="true">
                  {Number.isNaN(chapter.start) ? '' : formatDuration(chapter.start)}
                </span>
              </div>
              <div className="field edit-video__chapter-title">
                <label htmlFor={`${id}-title-${index}`}>Chapter title</label>
                <input
                  id={`${id}-title-${index}`}
                  ref={(element) => {
                    if (element) titles.current.set(index, element);
                    else titles.current.delete(index);
                  }}
                  type="text"
                  required
                  pattern=".*\S.*"
                  maxLength={CHAPTER_TITLE_MAX_LENGTH}
                  value={chapter.title}
                  onChange={(event) => change(index, { ...chapter, title: event.target.value })}
                />
              </div>
              <button className="button button--quiet" type="button" onClick={() => remove(index)} aria-label={`Remove chapter ${chapter.title || formatDuration(chapter.start)}`}>
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      <div className="edit-video__chapter-actions">
        <button className="button" type="button" disabled={full} onClick={() => add(position())}>
          Mark here
        </button>
        <button className="button button--quiet" type="button" disabled={full} onClick={() => add(chapters.length ? Math.min(86_400, Math.max(...chapters.map((c) => c.start)) + 1) : 0)}>
          Add chapter
        </button>
      </div>
    </fieldset>
  );
}
