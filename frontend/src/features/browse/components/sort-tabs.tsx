import { Link } from 'react-router';
import { SORT_LABELS, VIDEO_SORTS, type VideoSort } from '@/api/videos/sorts';
import { catalogueSearch } from '../utils/catalogue-search';

/** The catalogue's orderings as links, so each one has its own URL (shareable, back button works). */
export function SortTabs({ current, keep }: { current: VideoSort; keep?: Record<string, string> }) {
  return (
    <nav className="sort-tabs" aria-label="Sort videos">
      <ul role="list">
        {VIDEO_SORTS.map((sort) => (
          <li key={sort}>
            <Link
              className="sort-tabs__link"
              to={{ search: catalogueSearch(sort, 1, keep) }}
              aria-current={sort === current ? 'page' : undefined}
            >
              {SORT_LABELS[sort]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
