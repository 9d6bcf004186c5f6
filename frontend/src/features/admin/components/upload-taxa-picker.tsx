import { useId, useState } from 'react';
import { useTaxa, type TaxonKind } from '@/api/taxonomy/get-taxa';

interface UploadTaxaPickerProps {
  kind: TaxonKind;
  legend: string;
  /** Chosen ids. */
  value: string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
}

/** A list of the filter box appears from this many entries on. */
const FILTER_FROM = 8;

/** Several categories or performers, chosen with checkboxes from the site's list (filterable when long). */
export function UploadTaxaPicker({ kind, legend, value, onChange, disabled = false }: UploadTaxaPickerProps) {
  const id = useId();
  const taxa = useTaxa(kind);
  const [filter, setFilter] = useState('');
  const items = taxa.data?.data ?? [];
  const needle = filter.trim().toLowerCase();
  const shown = needle ? items.filter((item) => item.name.toLowerCase().includes(needle)) : items;
  const chosen = new Set(value);

  const toggle = (itemId: string, on: boolean) =>
    onChange(on ? [...value.filter((v) => v !== itemId), itemId] : value.filter((v) => v !== itemId));

  return (
    <fieldset className="upload-taxa" disabled={disabled}>
      <legend>
        {legend} <span className="upload-taxa__count">({value.length} chosen)</span>
      </legend>
      {taxa.isPending ? (
        <p className="field__hint">Loading…</p>
      ) : taxa.isError ? (
        <p className="form-error">
          The {kind} could not be loaded.{' '}
          <button className="button button--quiet" type="button" onClick={() => void taxa.refetch()}>
            Try again
          </button>
        </p>
      ) : items.length === 0 ? (
        <p className="field__hint">There are no {kind} yet.</p>
      ) : (
        <>
          {items.length >= FILTER_FROM && (
            <div className="field">
              <label htmlFor={`${id}-filter`}>Filter {kind}</label>
              <input id={`${id}-filter`} type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
            </div>
          )}
          <ul className="upload-taxa__list" role="list">
            {shown.map((item) => (
              <li key={item.id}>
                <label className="upload-taxa__item">
                  <input
                    type="checkbox"
                    checked={chosen.has(item.id)}
                    onChange={(event) => toggle(item.id, event.target.checked)}
                  />
                  <span>{item.name}</span>
                </label>
              </li>
            ))}
            {shown.length === 0 && <li className="field__hint">No {kind} match “{filter.trim()}”.</li>}
          </ul>
        </>
      )}
    </fieldset>
  );
}
