import { SEARCH_QUERY_MAX_LENGTH } from '@hunktube/shared';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/** The API matches at most this much of a query; longer input is trimmed rather than refused. */

/** The header's search box: submits to /search?q=…, showing the current query while on the results page. */
export function SearchForm() {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const current = location.pathname === '/search' ? (searchParams.get('q') ?? '') : '';
  const [draft, setDraft] = useState<{ for: string; value: string }>({ for: current, value: current });
  // Navigating to other results (back button, a link) replaces what was typed with that page's query.
  const value = draft.for === current ? draft.value : current;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = value.trim();
    if (!q) return;
    void navigate({ pathname: '/search', search: `?${new URLSearchParams({ q }).toString()}` });
  };

  return (
    // The action is the results page, for a search sent before the app has hydrated the page (or without it).
    <form className="search-form" role="search" action="/search" onSubmit={onSubmit}>
      <label className="visually-hidden" htmlFor="site-search">
        Search videos
      </label>
      <input
        id="site-search"
        className="search-form__input"
        type="search"
        name="q"
        placeholder="Search videos"
        maxLength={SEARCH_QUERY_MAX_LENGTH}
        autoComplete="off"
        enterKeyHint="search"
        value={value}
        onChange={(event) => setDraft({ for: current, value: event.target.value })}
      />
      <button className="search-form__button" type="submit" aria-label="Search">
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="11" cy="11" r="6.5" />
          <path d="m16 16 4.5 4.5" />
        </svg>
      </button>
    </form>
  );
}
