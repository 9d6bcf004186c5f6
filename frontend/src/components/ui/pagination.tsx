import { Link, type To } from 'react-router';

interface PaginationProps {
  page: number;
  pageCount: number;
  /** Where the link to a given page points. */
  to: (page: number) => To;
}

/** Previous / next links with the current position; absent when everything fits on one page. */
export function Pagination({ page, pageCount, to }: PaginationProps) {
  if (pageCount <= 1 && page <= 1) return null;
  const hasPrevious = page > 1;
  const hasNext = page < pageCount;

  return (
    <nav className="pagination" aria-label="Pagination">
      {hasPrevious ? (
        <Link className="pagination__link" to={to(Math.min(page - 1, Math.max(pageCount, 1)))} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className="pagination__link" aria-disabled="true">
          ← Previous
        </span>
      )}
      <span className="pagination__status">
        Page {page} of {Math.max(pageCount, 1)}
      </span>
      {hasNext ? (
        <Link className="pagination__link" to={to(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span className="pagination__link" aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}
