import { slugify, TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTaxa } from '@/api/taxonomy/get-taxa';
import { useAddTagSynonym, useRemoveTagSynonym, useTagSynonyms } from '@/api/taxonomy/tag-synonyms';
import { ApiError } from '@/lib/api/client';
import type { Taxon } from '@/lib/api/types';
import { failureNotice, useAdminNotice } from './admin-notice';
import { failureText } from './taxonomy-section';

/** The tag a typed target names: by its name (any case), its id, or the id the slug rule makes of it. */
function findTag(tags: readonly Taxon[], typed: string): Taxon | undefined {
  const lower = typed.toLowerCase();
  const slug = slugify(typed);
  return tags.find((tag) => tag.name.toLowerCase() === lower) ?? tags.find((tag) => tag.id === typed || tag.id === slug);
}

const videos = (count: number) => `${count} ${count === 1 ? 'video' : 'videos'}`;

/**
 * Tag synonyms (muscled → muscle): the list, a form to add one, a Remove button per synonym. A synonym's address,
 * filter and typed name answer as its tag; adding one whose alias is a tag merges that tag into the target.
 */
export function TagSynonymsSection() {
  const id = useId();
  const synonyms = useTagSynonyms();
  const tags = useTaxa('tags');
  const add = useAddTagSynonym();
  const remove = useRemoveTagSynonym();
  const notice = useAdminNotice();
  const [alias, setAlias] = useState('');
  const [target, setTarget] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const aliasInput = useRef<HTMLInputElement>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typedAlias = alias.trim();
    const typedTarget = target.trim();
    if (!typedAlias || !typedTarget) {
      setProblem('Enter the synonym and the tag it leads to.');
      return;
    }
    const tag = findTag(tags.data?.data ?? [], typedTarget);
    // Without the list (not loaded), the API is asked with the target's id, and says whether it exists.
    if (tags.data && !tag) {
      setProblem(`There is no tag “${typedTarget}”.`);
      return;
    }
    setProblem(null);
    add.mutate(
      { alias: typedAlias, tag: tag?.id ?? slugify(typedTarget) },
      {
        onSuccess: (added) => {
          setAlias('');
          setTarget('');
          notice.success(
            added.merged > 0
              ? `Merged “${added.alias}” into ${added.tag.name}: ${videos(added.merged)} ${added.merged === 1 ? 'has' : 'have'} it now.`
              : `“${added.alias}” now leads to ${added.tag.name}.`,
          );
        },
        onError: (error) =>
          setProblem(
            error instanceof ApiError && error.statusCode === 404
              ? failureText(error, `There is no tag “${typedTarget}”.`)
              : failureText(error, 'The synonym could not be added.'),
          ),
      },
    );
  };

  const removeSynonym = (name: string) =>
    remove.mutate(name, {
      onSuccess: () => notice.success(`Removed the synonym “${name}”.`),
      onError: (error) => notice.error(failureNotice(`The synonym “${name}” could not be removed`, error)),
      // Its row and its button go: the focus goes to the form, to add another.
      onSettled: () => aliasInput.current?.focus(),
    });

  const items = synonyms.data?.data ?? [];

  return (
    <section className="taxonomy-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Tag synonyms</h2>

      <form className="taxonomy-create taxonomy-synonym" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-alias`}>Synonym</label>
          <input
            ref={aliasInput}
            id={`${id}-alias`}
            value={alias}
            onChange={(event) => setAlias(event.target.value)}
            maxLength={TAXON_NAME_MAX_LENGTH}
            autoComplete="off"
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-hint`}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-target`}>Leads to the tag</label>
          <input
            id={`${id}-target`}
            list={`${id}-tags`}
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            maxLength={TAXON_NAME_MAX_LENGTH}
            autoComplete="off"
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-hint`}
          />
          <datalist id={`${id}-tags`}>
            {tags.data?.data.map((tag) => (
              <option key={tag.id} value={tag.name} />
            ))}
          </datalist>
        </div>
        <button className="button" type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add synonym'}
        </button>
        {problem && (
          <p className="form-error taxonomy-synonym__full" role="alert">
            {problem}
          </p>
        )}
        <p className="field__hint taxonomy-synonym__full" id={`${id}-hint`}>
          A word that stands for a tag (muscled → Muscle): its address and a video given it get the tag. A tag that
          exists under the synonym is merged into the tag it leads to: its videos get that tag, and it goes.
        </p>
      </form>

      {synonyms.isPending ? (
        <p className="notice" aria-busy="true">
          Loading the synonyms…
        </p>
      ) : synonyms.isError ? (
        <div className="notice" role="alert">
          <p>The synonyms could not be loaded.</p>
          <button className="button" type="button" onClick={() => void synonyms.refetch()}>
            Try again
          </button>
        </div>
      ) : items.length === 0 ? (
        <p className="notice">No synonyms yet.</p>
      ) : (
        <div className="video-table__scroll">
          <table className="admin-table taxonomy-table">
            <caption className="visually-hidden">Tag synonyms and the tags they lead to</caption>
            <thead>
              <tr>
                <th scope="col">Synonym</th>
                <th scope="col">Leads to</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((synonym) => (
                <tr key={synonym.alias}>
                  <td className="taxonomy-table__id">
                    <code>{synonym.alias}</code>
                  </td>
                  <td className="taxonomy-table__name">{synonym.tag.name}</td>
                  <td>
                    <button
                      className="button button--quiet"
                      type="button"
                      aria-label={`Remove synonym ${synonym.alias}`}
                      disabled={remove.isPending && remove.variables === synonym.alias}
                      onClick={() => removeSynonym(synonym.alias)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
