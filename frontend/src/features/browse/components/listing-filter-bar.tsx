import { useId } from 'react';
import { Link } from 'react-router';
import {
  DURATION_CHOICES, LISTING_QUALITIES, type ListingFilters, QUALITY_LABELS, UPLOADED_LABELS, UPLOADED_WINDOWS,
} from '@hunktube/shared';
import type { VideoSort } from '@/api/videos/sorts';
import { appliedFilters, durationChoice, filterKeep } from '../utils/listing-filters';
import { catalogueSearch } from '../utils/catalogue-search';

interface ListingFilterBarProps {
  filters: ListingFilters;
  sort: VideoSort;
  /** The view's own parameters (a search's `q`), kept in every link. */
  keep?: Record<string, string>;
}

/**
 * The listing's filters as links (docs/web-client.md › "Listing filters"): each choice's address sets it (or,
 * when it is the one applied, removes it), keeping the sort and the view's parameters and starting again at
 * page 1. Links work without JavaScript and on the server-rendered page, and each filtered view has its own
 * address to share. Under the choices, one chip per applied filter removes it, and "Clear all" removes them all.
 */
export function ListingFilterBar({ filters, sort, keep = {} }: ListingFilterBarProps) {
  const id = useId();
  const to = (next: ListingFilters) => ({ search: catalogueSearch(sort, 1, { ...keep, ...filterKeep(next) }) });
  const applied = appliedFilters(filters);
  const length = durationChoice(filters);

  const group = (label: string, choices: { key: string; label: string; active: boolean; next: ListingFilters }[]) => (
    <div className="listing-filters__group" role="group" aria-labelledby={`${id}-${label}`}>
      <span className="listing-filters__label" id={`${id}-${label}`}>
        {label}
      </span>
      <ul role="list">
        {choices.map((choice) => (
          <li key={choice.key}>
            <Link className="listing-filters__choice" to={to(choice.next)} aria-current={choice.active ? 'true' : undefined} rel="nofollow">
              {choice.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );

  return (
    <div className="listing-filters">
      <details className="listing-filters__panel">
        <summary className="listing-filters__toggle">
          Filters{applied.length > 0 && <span className="listing-filters__count"> ({applied.length})</span>}
        </summary>
        <nav className="listing-filters__choices" aria-label="Filter videos">
          {group(
            'Length',
            DURATION_CHOICES.map((choice) => {
              const active = choice === length;
              const { minDuration, maxDuration } = active ? { minDuration: undefined, maxDuration: undefined } : choice;
              return { key: choice.label, label: choice.label, active, next: { ...filters, minDuration, maxDuration } };
            }),
          )}
          {group(
            'Quality',
            LISTING_QUALITIES.map((quality) => {
              const active = filters.quality === quality;
              return { key: quality, label: QUALITY_LABELS[quality], active, next: { ...filters, quality: active ? undefined : quality } };
            }),
          )}
          {group(
            'Uploaded',
            UPLOADED_WINDOWS.map((uploaded) => {
              const active = filters.uploaded === uploaded;
              return { key: uploaded, label: UPLOADED_LABELS[uploaded], active, next: { ...filters, uploaded: active ? undefined : uploaded } };
            }),
          )}
        </nav>
      </details>
      {applied.length > 0 && (
        <ul className="filter-chips" role="list" aria-label="Applied filters">
          {applied.map((chip) => (
            <li key={chip.label}>
              <Link className="filter-chips__chip" to={to(chip.without)} aria-label={`Remove filter: ${chip.label}`} rel="nofollow">
                {chip.label}
                <span aria-hidden="true"> ×</span>
              </Link>
            </li>
          ))}
          <li>
            <Link className="filter-chips__clear" to={to({})} rel="nofollow">
              Clear all
            </Link>
          </li>
        </ul>
      )}
    </div>
  );
}
