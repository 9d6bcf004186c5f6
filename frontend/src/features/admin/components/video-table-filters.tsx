import { SEARCH_QUERY_MAX_LENGTH } from '@hunktube/shared';
import { useEffect, useId, useState } from 'react';
import { SORT_LABELS, VIDEO_SORTS, type VideoSort } from '@/api/videos/sorts';

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

interface VideoTableFiltersProps {
  q: string;
  sort: VideoSort;
  onSearch: (q: string) => void;
  onSort: (sort: VideoSort) => void;
}

/** The search box (sent once typing pauses) and the sort order of the admin's video table. */
export function VideoTableFilters({ q, sort, onSearch, onSort }: VideoTableFiltersProps) {
  const id = useId();
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);

  // The URL changed under the box (back button, a link): show its search, unless it is what is typed.
  if (q !== shownQ) {
    setShownQ(q);
    if (q !== text.trim()) setText(q);
  }

  useEffect(() => {
    const wanted = text.trim();
    if (wanted === q) return;
    const timer = window.setTimeout(() => onSearch(wanted), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, q, onSearch]);

  return (
    <form
      className="admin-filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim() !== q) onSearch(text.trim());
      }}
    >
      <div className="field admin-filters__search">
        <label htmlFor={`${id}-q`}>Search titles</label>
        <input
          id={`${id}-q`}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
          maxLength={SEARCH_QUERY_MAX_LENGTH}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-sort`}>Sort by</label>
        <select id={`${id}-sort`} value={sort} onChange={(event) => onSort(event.target.value as VideoSort)}>
          {VIDEO_SORTS.map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
