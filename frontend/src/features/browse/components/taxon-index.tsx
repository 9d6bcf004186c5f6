import { TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useTaxa, type TaxonKind } from '@/api/taxonomy/get-taxa';
import { formatNumber } from '@/lib/format';
import { DocumentTitle } from '@/lib/document-title';
import { PAGE_TITLES } from '@/lib/page-titles';

type Order = 'popular' | 'name';

const TEXTS: Record<TaxonKind, { heading: string; filter: string; none: string; noMatch: string; order: Order }> = {
  categories: {
    heading: PAGE_TITLES.categories,
    filter: 'Filter categories',
    none: 'No categories yet.',
    noMatch: 'No category matches',
    order: 'popular',
  },
  performers: {
    heading: PAGE_TITLES.performers,
    filter: 'Filter performers',
    none: 'No performers yet.',
    noMatch: 'No performer matches',
    order: 'popular',
  },
  // Many small ones, looked up by their word: by name first, drawn as a dense list of links.
  tags: {
    heading: PAGE_TITLES.tags,
    filter: 'Filter tags',
    none: 'No tags yet.',
    noMatch: 'No tag matches',
    order: 'name',
  },
};

/**
 * The index of categories, performers or tags: every one with its number of videos, most videos first by default
 * (tags by name), with a filter box for long lists. Entries without videos are left out: they would lead to empty
 * pages.
 */
export function TaxonIndex({ kind }: { kind: TaxonKind }) {
  const headingId = useId();
  const filterId = useId();
  const texts = TEXTS[kind];
  const taxa = useTaxa(kind);
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState<Order>(texts.order);

  const needle = filter.trim().toLowerCase();
  const shown = (taxa.data?.data ?? [])
    .filter((taxon) => taxon.video_count > 0 && taxon.name.toLowerCase().includes(needle))
    .sort((a, b) =>
      order === 'popular' ? b.video_count - a.video_count || a.name.localeCompare(b.name) : a.name.localeCompare(b.name),
    );

  return (
    <section className="taxon-index" aria-labelledby={headingId}>
      <DocumentTitle>{texts.heading}</DocumentTitle>
      <div className="catalogue__head">
        <h1 id={headingId}>{texts.heading}</h1>
        <div className="taxon-index__tools">
          <label className="visually-hidden" htmlFor={filterId}>
            {texts.filter}
          </label>
          <input
            id={filterId}
            className="taxon-index__filter"
            type="search"
            placeholder={texts.filter}
            maxLength={TAXON_NAME_MAX_LENGTH}
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
          <div className="sort-tabs" role="group" aria-label="Order">
            <ul role="list">
              <li>
                <button
                  type="button"
                  className="sort-tabs__link"
                  aria-pressed={order === 'popular'}
                  onClick={() => setOrder('popular')}
                >
                  Most videos
                </button>
              </li>
              <li>
                <button
                  type="button"
                  className="sort-tabs__link"
                  aria-pressed={order === 'name'}
                  onClick={() => setOrder('name')}
                >
                  A–Z
                </button>
              </li>
            </ul>
          </div>
        </div>
      </div>

      {taxa.isError ? (
        <div className="notice" role="alert">
          <p>The {kind} could not be loaded.</p>
          <button className="button" type="button" onClick={() => void taxa.refetch()}>
            Try again
          </button>
        </div>
      ) : taxa.isPending ? (
        <div className="taxon-index__list" aria-hidden="true">
          {Array.from({ length: 12 }, (_, i) => (
            <div className="taxon-index__item skeleton" key={i} />
          ))}
        </div>
      ) : shown.length === 0 ? (
        <p className="notice">{needle ? `${texts.noMatch} “${filter.trim()}”.` : texts.none}</p>
      ) : (
        <ul
          className={kind === 'tags' ? 'taxon-index__list taxon-index__list--compact' : 'taxon-index__list'}
          role="list"
          aria-label={texts.heading}
        >
          {shown.map((taxon) => (
            <li key={taxon.id}>
              <Link className="taxon-index__item" to={`/${kind}/${encodeURIComponent(taxon.id)}`}>
                <span className="taxon-index__name">{taxon.name}</span>
                <span className="taxon-index__count">
                  {formatNumber(taxon.video_count)} {taxon.video_count === 1 ? 'video' : 'videos'}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
