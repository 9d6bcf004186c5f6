import { useId, useState } from 'react';
import { useCreateTaxon } from '@/api/taxonomy/create-taxon';
import { useTaxa, type CreatableTaxonKind } from '@/api/taxonomy/get-taxa';
import type { TaxonRef } from '@/lib/api/types';
import { errorText, useAdminNotice } from './admin-notice';

const WORDS: Record<CreatableTaxonKind, { label: string; one: string }> = {
  categories: { label: 'Categories', one: 'category' },
  performers: { label: 'Performers', one: 'performer' },
};

interface EditVideoTaxaProps {
  kind: CreatableTaxonKind;
  /** The video's list in the panel's local copy. */
  items: TaxonRef[];
  /** Adds one to the local copy; the panel skips one the video already has. */
  onAdd: (taxon: TaxonRef) => void;
}

/**
 * The video's categories or performers: a read-only list, one name per line, a dropdown of the known ones with a
 * + button, and Create new. Additions stay local until Save Changes.
 */
export function EditVideoTaxa({ kind, items, onAdd }: EditVideoTaxaProps) {
  const id = useId();
  const { label, one } = WORDS[kind];
  const taxa = useTaxa(kind);
  const create = useCreateTaxon(kind);
  const notice = useAdminNotice();
  const [choice, setChoice] = useState('');

  const known = [...(taxa.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  const addChoice = () => {
    const taxon = known.find((item) => item.id === choice);
    if (taxon) onAdd({ id: taxon.id, name: taxon.name });
  };

  const createNew = () => {
    const name = window.prompt(`Name of the new ${one}:`)?.trim();
    if (!name) return;
    create.mutate(name, {
      // The list refreshes (useCreateTaxon); the new one is what the admin wants on this video, so it is added
      // to the local copy too, still to be saved with Save Changes.
      onSuccess: (created) => {
        onAdd({ id: created.id, name: created.name });
        setChoice(created.id);
        notice.success(`Created the ${one} "${created.name}" and added it to this video. Save Changes to keep it.`);
      },
      onError: (error) => console.error(`Error creating ${one}`, errorText(error)),
    });
  };

  return (
    <div className="edit-video__taxa">
      <label htmlFor={`${id}-list`}>{label}</label>
      <textarea
        id={`${id}-list`}
        className="edit-video__list"
        readOnly
        rows={Math.max(3, items.length)}
        value={items.map((item) => item.name).join('\n')}
      />
      <div className="edit-video__taxa-controls">
        <label className="visually-hidden" htmlFor={`${id}-choice`}>
          {`Choose a ${one} to add`}
        </label>
        <select id={`${id}-choice`} value={choice} onChange={(event) => setChoice(event.target.value)}>
          <option value="">
            {taxa.isPending ? 'Loading...' : taxa.isError ? `The ${kind} could not be loaded` : `Choose a ${one}`}
          </option>
          {known.map((taxon) => (
            <option key={taxon.id} value={taxon.id}>
              {taxon.name}
            </option>
          ))}
        </select>
        <button className="button button--quiet edit-video__add" type="button" disabled={!choice} onClick={addChoice}>
          <span aria-hidden="true">+</span>
          <span className="visually-hidden">{`Add ${one}`}</span>
        </button>
        <button className="button button--quiet" type="button" disabled={create.isPending} onClick={createNew}>
          {'Create new '}
          <span className="visually-hidden">{one}</span>
        </button>
      </div>
    </div>
  );
}
