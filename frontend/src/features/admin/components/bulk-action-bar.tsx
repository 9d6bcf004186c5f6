import { slugify, TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTaxa, type CreatableTaxonKind } from '@/api/taxonomy/get-taxa';
import { Dialog } from '@/components/ui/dialog';
import type { BulkAction, BulkProgress, BulkTarget } from '../api/bulk-edit-videos';

interface BulkActionBarProps {
  selected: BulkTarget[];
  busy: boolean;
  progress: BulkProgress | null;
  onRun: (action: BulkAction) => void;
  onClear: () => void;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** How many titles the delete confirmation names before summing up the rest. */
const NAMED_IN_CONFIRMATION = 8;

/**
 * The actions for the selected videos: featured value, add or remove a category, a performer or a tag, delete
 * (after one confirmation for all of them).
 */
export function BulkActionBar({ selected, busy, progress, onRun, onClear }: BulkActionBarProps) {
  const id = useId();
  const [featured, setFeatured] = useState('1');
  const [confirming, setConfirming] = useState(false);
  const count = selected.length;
  const featuredValue = Number(featured);
  const featuredValid = featured.trim() !== '' && Number.isSafeInteger(featuredValue) && featuredValue >= 0;

  return (
    <section className="bulk-bar" aria-labelledby={`${id}-count`} aria-busy={busy}>
      <div className="bulk-bar__head">
        <h2 className="bulk-bar__count" id={`${id}-count`} aria-live="polite">
          {count} selected
        </h2>
        <button className="button button--quiet bulk-bar__clear" type="button" onClick={onClear} disabled={busy}>
          Clear selection
        </button>
      </div>

      {progress ? (
        <div className="bulk-bar__progress" role="status">
          <progress value={progress.finished} max={progress.total} aria-label="Bulk action progress" />
          <span>
            Working… {progress.finished} of {progress.total}
          </span>
        </div>
      ) : (
        <div className="bulk-bar__actions">
          <form
            className="bulk-bar__group"
            onSubmit={(event) => {
              event.preventDefault();
              if (featuredValid) onRun({ type: 'set-featured', featured: featuredValue });
            }}
          >
            <div className="field">
              <label htmlFor={`${id}-featured`}>Featured</label>
              <input
                id={`${id}-featured`}
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                value={featured}
                onChange={(event) => setFeatured(event.target.value)}
                aria-invalid={!featuredValid}
                aria-describedby={`${id}-featured-hint`}
              />
              <span className="visually-hidden" id={`${id}-featured-hint`}>
                0 is not featured
              </span>
            </div>
            <button className="button" type="submit" disabled={busy || !featuredValid}>
              Set featured
            </button>
            <button
              className="button button--quiet"
              type="button"
              disabled={busy}
              onClick={() => onRun({ type: 'set-featured', featured: 0 })}
            >
              Unfeature
            </button>
          </form>

          <BulkTaxonControls kind="categories" busy={busy} onRun={onRun} />
          <BulkTaxonControls kind="performers" busy={busy} onRun={onRun} />
          <BulkTagControls busy={busy} onRun={onRun} />

          <div className="bulk-bar__group">
            <button className="button bulk-bar__delete" type="button" disabled={busy} onClick={() => setConfirming(true)}>
              Delete
            </button>
          </div>
        </div>
      )}

      <Dialog open={confirming} title="Confirm Deletion" onClose={() => setConfirming(false)}>
        <div className="bulk-confirm">
          <p>
            {count === 1
              ? 'Are you sure you want to delete this video?'
              : `Are you sure you want to delete these ${count} videos?`}
          </p>
          <ul className="bulk-confirm__list">
            {selected.slice(0, NAMED_IN_CONFIRMATION).map((video) => (
              <li key={video.id}>{video.title}</li>
            ))}
            {count > NAMED_IN_CONFIRMATION && <li>and {plural(count - NAMED_IN_CONFIRMATION, 'other', 'others')}</li>}
          </ul>
          <p className="field__hint">Their media files, list entries and playlist items go with them.</p>
          <div className="bulk-confirm__buttons">
            <button className="button button--quiet" type="button" data-autofocus onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              className="button bulk-bar__delete"
              type="button"
              onClick={() => {
                setConfirming(false);
                onRun({ type: 'delete' });
              }}
            >
              Delete
            </button>
          </div>
        </div>
      </Dialog>
    </section>
  );
}

const KIND_WORDS: Record<CreatableTaxonKind, { one: string; title: string }> = {
  categories: { one: 'category', title: 'Category' },
  performers: { one: 'performer', title: 'Performer' },
};

function BulkTaxonControls({ kind, busy, onRun }: { kind: CreatableTaxonKind; busy: boolean; onRun: (action: BulkAction) => void }) {
  const id = useId();
  const taxa = useTaxa(kind);
  const [chosen, setChosen] = useState('');
  const words = KIND_WORDS[kind];
  const taxon = taxa.data?.data.find((item) => item.id === chosen);

  return (
    <div className="bulk-bar__group">
      <div className="field">
        <label htmlFor={`${id}-select`}>{words.title}</label>
        <select
          id={`${id}-select`}
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          disabled={!taxa.data}
        >
          <option value="">
            {taxa.isError ? `Could not load the ${kind}` : taxa.data ? `Choose a ${words.one}` : 'Loading…'}
          </option>
          {taxa.data?.data.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </select>
      </div>
      <button
        className="button"
        type="button"
        disabled={busy || !taxon}
        onClick={() => taxon && onRun({ type: 'add-taxon', kind, taxon: { id: taxon.id, name: taxon.name } })}
      >
        Add {words.one}
      </button>
      <button
        className="button button--quiet"
        type="button"
        disabled={busy || !taxon}
        onClick={() => taxon && onRun({ type: 'remove-taxon', kind, id: taxon.id })}
      >
        Remove {words.one}
      </button>
    </div>
  );
}

/** Why a typed tag name cannot be added (the API's rules: TAXON_NAME_MAX_LENGTH, a letter or digit), or null. */
function tagNameProblem(name: string): string | null {
  if (name.length > TAXON_NAME_MAX_LENGTH) return `A tag has at most ${TAXON_NAME_MAX_LENGTH} characters.`;
  if (!slugify(name)) return 'A tag needs a letter or a digit (a–z, 0–9).';
  return null;
}

/**
 * Tags: one added by its name as typed (a tag the site has, suggested as one types, or a new one, which the API
 * creates), or one of the site's removed.
 */
function BulkTagControls({ busy, onRun }: { busy: boolean; onRun: (action: BulkAction) => void }) {
  const id = useId();
  const tags = useTaxa('tags');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState('');
  const tag = tags.data?.data.find((item) => item.id === chosen);

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    const refused = tagNameProblem(trimmed);
    setProblem(refused);
    if (refused) return;
    // A tag the site has goes by its own name (the API would match it all the same).
    const slug = slugify(trimmed);
    const known = tags.data?.data.find((item) => item.id === slug || slugify(item.name) === slug);
    onRun({ type: 'add-tag', name: known?.name ?? trimmed });
  };

  return (
    <>
      <form className="bulk-bar__group" onSubmit={add} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>Tag to add</label>
          <input
            id={`${id}-name`}
            type="text"
            list={`${id}-known`}
            autoComplete="off"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setProblem(null);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
          <datalist id={`${id}-known`}>
            {tags.data?.data.map((item) => (
              <option key={item.id} value={item.name} />
            ))}
          </datalist>
          {problem && (
            <span className="form-error" id={`${id}-problem`} role="alert">
              {problem}
            </span>
          )}
        </div>
        <button className="button" type="submit" disabled={busy || !name.trim()}>
          Add tag
        </button>
      </form>
      <div className="bulk-bar__group">
        <div className="field">
          <label htmlFor={`${id}-remove`}>Tag to remove</label>
          <select id={`${id}-remove`} value={chosen} onChange={(event) => setChosen(event.target.value)} disabled={!tags.data}>
            <option value="">{tags.isError ? 'Could not load the tags' : tags.data ? 'Choose a tag' : 'Loading…'}</option>
            {tags.data?.data.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </div>
        <button
          className="button button--quiet"
          type="button"
          disabled={busy || !tag}
          onClick={() => tag && onRun({ type: 'remove-tag', id: tag.id })}
        >
          Remove tag
        </button>
      </div>
    </>
  );
}
