import { TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useCreateTaxon } from '@/api/taxonomy/create-taxon';
import { useDeleteTag } from '@/api/taxonomy/delete-tag';
import { useTaxa, type CreatableTaxonKind, type TaxonKind } from '@/api/taxonomy/get-taxa';
import { useRenameTaxon } from '@/api/taxonomy/rename-taxon';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ApiError } from '@/lib/api/client';
import type { Taxon } from '@/lib/api/types';
import { useAdminNotice } from './admin-notice';

const WORDS: Record<TaxonKind, { one: string; title: string; heading: string }> = {
  categories: { one: 'category', title: 'Category', heading: 'Categories' },
  performers: { one: 'performer', title: 'Performer', heading: 'Performers' },
  tags: { one: 'tag', title: 'Tag', heading: 'Tags' },
};

/** A list of the filter box appears from this many entries on. */
const FILTER_FROM = 10;

/** The server's reason for a failed call, else `fallback`; a call that reached no server says so. */
export function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverError ?? fallback;
  return 'The server could not be reached. Please try again.';
}

/**
 * One kind of taxon: its list with video counts and inline renames, with a create form for categories and
 * performers; tags, made by naming them on a video, are deleted here instead (after a confirmation).
 */
export function TaxonomySection({ kind }: { kind: TaxonKind }) {
  const id = useId();
  const words = WORDS[kind];
  const taxa = useTaxa(kind);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Taxon | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const remove = useDeleteTag();
  const notice = useAdminNotice();

  const confirmDelete = () => {
    if (!deleting) return;
    const tag = deleting;
    remove.mutate(tag.id, {
      onSuccess: () => {
        setDeleting(null);
        notice.success(`Deleted the tag “${tag.name}”.`);
        // Its row and its Delete button are gone: the focus goes to the section, after the dialog gave it back.
        setTimeout(() => heading.current?.focus());
      },
    });
  };

  const items = taxa.data?.data ?? [];
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? items.filter((item) => item.name.toLowerCase().includes(needle) || item.id.includes(needle))
    : items;

  return (
    <section className="taxonomy-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={heading} tabIndex={-1}>
        {words.heading}
      </h2>

      {kind === 'tags' ? (
        <p className="field__hint">
          Tags are made by naming them on a video: in its edit panel, or with Add tag on the selected videos.
        </p>
      ) : (
        <TaxonomyCreateForm kind={kind} onCreated={notice.success} />
      )}

      {taxa.isPending ? (
        <p className="notice" aria-busy="true">
          Loading the {kind}…
        </p>
      ) : taxa.isError ? (
        <div className="notice" role="alert">
          <p>The {kind} could not be loaded.</p>
          <button className="button" type="button" onClick={() => void taxa.refetch()}>
            Try again
          </button>
        </div>
      ) : items.length === 0 ? (
        <p className="notice">No {kind} yet.</p>
      ) : (
        <>
          {items.length >= FILTER_FROM && (
            <div className="field taxonomy-section__filter">
              <label htmlFor={`${id}-filter`}>Filter {kind}</label>
              <input id={`${id}-filter`} type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
            </div>
          )}
          <div className="video-table__scroll">
            <table className="admin-table taxonomy-table">
              <caption className="visually-hidden">
                {words.heading} with their ids and video counts
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">ID</th>
                  <th scope="col" className="admin-table__number">
                    Videos
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((taxon) => (
                  <TaxonRow
                    key={taxon.id}
                    kind={kind}
                    taxon={taxon}
                    editing={editing === taxon.id}
                    onEdit={(on) => setEditing(on ? taxon.id : null)}
                    onRenamed={(text) => {
                      setEditing(null);
                      notice.success(text);
                    }}
                    onDelete={
                      kind === 'tags'
                        ? () => {
                            remove.reset();
                            setDeleting(taxon);
                          }
                        : undefined
                    }
                  />
                ))}
              </tbody>
            </table>
          </div>
          {shown.length === 0 && <p className="notice">No {kind} match “{filter.trim()}”.</p>}
        </>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete tag"
        confirmLabel="Delete tag"
        busy={remove.isPending}
        error={remove.error ? deleteFailure(remove.error) : null}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {deleting &&
          `Delete the tag “${deleting.name}”? It is taken off every video that has it (${countOf(deleting.video_count)}), and its synonyms go with it. This cannot be undone.`}
      </ConfirmDialog>
    </section>
  );
}

const countOf = (count: number) => `${count} published ${count === 1 ? 'video' : 'videos'}`;

function deleteFailure(error: unknown): string {
  if (error instanceof ApiError && error.statusCode === 404) return 'This tag no longer exists.';
  return failureText(error, 'The tag could not be deleted.');
}

function TaxonomyCreateForm({ kind, onCreated }: { kind: CreatableTaxonKind; onCreated: (text: string) => void }) {
  const id = useId();
  const words = WORDS[kind];
  const create = useCreateTaxon(kind);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setProblem('Enter a name.');
      return;
    }
    setProblem(null);
    create.mutate(trimmed, {
      onSuccess: (created) => {
        setName('');
        onCreated(`Created ${words.one} “${created.name}” (id ${created.id}).`);
      },
      onError: (error) =>
        setProblem(
          error instanceof ApiError && error.statusCode === 409
            ? failureText(error, `A ${words.one} with this name already exists.`)
            : failureText(error, `The ${words.one} could not be created.`),
        ),
    });
  };

  return (
    <form className="taxonomy-create" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>New {words.one} name</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={TAXON_NAME_MAX_LENGTH}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
        />
        {problem ? (
          <p className="form-error" id={`${id}-problem`} role="alert">
            {problem}
          </p>
        ) : (
          <span className="field__hint" id={`${id}-hint`}>
            The id is made from the name (“Big Muscle Men!” → big-muscle-men).
          </span>
        )}
      </div>
      <button className="button" type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : `Create ${words.one}`}
      </button>
    </form>
  );
}

interface TaxonRowProps {
  kind: TaxonKind;
  taxon: Taxon;
  editing: boolean;
  onEdit: (editing: boolean) => void;
  onRenamed: (text: string) => void;
  /** Asks to delete it (tags only). */
  onDelete?: () => void;
}

function TaxonRow({ kind, taxon, editing, onEdit, onRenamed, onDelete }: TaxonRowProps) {
  const id = useId();
  const words = WORDS[kind];
  const rename = useRenameTaxon(kind);
  const [name, setName] = useState(taxon.name);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);

  useEffect(() => {
    if (editing) input.current?.select();
    // Back from editing: focus returns to the row's Rename button.
    else if (wasEditing.current) renameButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const start = () => {
    setName(taxon.name);
    setProblem(null);
    rename.reset();
    onEdit(true);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setProblem('Enter a name.');
      return;
    }
    if (trimmed === taxon.name) {
      onEdit(false);
      return;
    }
    setProblem(null);
    rename.mutate(
      { id: taxon.id, name: trimmed },
      {
        onSuccess: (renamed) => onRenamed(`Renamed “${taxon.name}” to “${renamed.name}”.`),
        onError: (error) => {
          if (error instanceof ApiError && error.statusCode === 409) {
            setProblem(failureText(error, `Another ${words.one} already has this name.`));
          } else if (error instanceof ApiError && error.statusCode === 404) {
            setProblem(`This ${words.one} no longer exists.`);
          } else {
            setProblem(failureText(error, `The ${words.one} could not be renamed.`));
          }
        },
      },
    );
  };

  return (
    <tr>
      <td className="taxonomy-table__name">
        {editing ? (
          <form className="taxonomy-rename" onSubmit={onSubmit} noValidate>
            <label className="visually-hidden" htmlFor={`${id}-name`}>
              New name for {taxon.name}
            </label>
            <input
              ref={input}
              id={`${id}-name`}
              value={name}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') {
                  event.preventDefault();
                  onEdit(false);
                }
              }}
              maxLength={TAXON_NAME_MAX_LENGTH}
              autoComplete="off"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
            />
            <button className="button" type="submit" disabled={rename.isPending}>
              {rename.isPending ? 'Saving…' : 'Save'}
            </button>
            <button className="button button--quiet" type="button" onClick={() => onEdit(false)}>
              Cancel
            </button>
            {problem && (
              <p className="form-error taxonomy-rename__error" id={`${id}-problem`} role="alert">
                {problem}
              </p>
            )}
          </form>
        ) : (
          taxon.name
        )}
      </td>
      <td className="taxonomy-table__id">
        <code>{taxon.id}</code>
      </td>
      <td className="admin-table__number">{taxon.video_count}</td>
      <td>
        {!editing && (
          <div className="taxonomy-table__actions">
            <button
              ref={renameButton}
              className="button button--quiet"
              type="button"
              aria-label={`Rename ${taxon.name}`}
              onClick={start}
            >
              Rename
            </button>
            {onDelete && (
              <button
                className="button button--quiet"
                type="button"
                aria-label={`Delete ${taxon.name}`}
                aria-haspopup="dialog"
                onClick={onDelete}
              >
                Delete
              </button>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}
