import { slugify, TAGS_PER_VIDEO_MAX, TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTaxa } from '@/api/taxonomy/get-taxa';
import type { Taxon, TaxonRef } from '@/lib/api/types';

interface EditVideoTagsProps {
  /** The video's tags in the panel's local copy. */
  tags: TaxonRef[];
  onChange: (tags: TaxonRef[]) => void;
}

/** Whether a typed name is a tag the list has already: the same id by the slug rule, as the API matches names. */
const sameTag = (tag: TaxonRef, slug: string) => tag.id === slug || slugify(tag.name) === slug;

/**
 * The tags the typed text adds to `tags` (a comma separates names), each checked as the API checks it, and what
 * stays in the box: the names refused, with why the first was. A name the site knows becomes that tag (its id and
 * name); a new one goes as typed, with the id the API will give it, and is created when the video is saved.
 */
export function addTypedTags(tags: TaxonRef[], text: string, known: readonly Taxon[]): { tags: TaxonRef[]; left: string; problem: string | null } {
  const next = [...tags];
  const left: string[] = [];
  let problem: string | null = null;
  const refuse = (name: string, why: string) => {
    left.push(name);
    problem ??= why;
  };
  for (const name of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const slug = slugify(name);
    if (name.length > TAXON_NAME_MAX_LENGTH) refuse(name, `A tag has at most ${TAXON_NAME_MAX_LENGTH} characters.`);
    else if (!slug) refuse(name, `“${name}” needs a letter or a digit (a–z, 0–9).`);
    else if (next.some((tag) => sameTag(tag, slug))) {
      // Already there: nothing to add, nothing to keep in the box.
      problem ??= `“${name}” is already a tag of this video.`;
    } else if (next.length >= TAGS_PER_VIDEO_MAX) {
      refuse(name, `A video has at most ${TAGS_PER_VIDEO_MAX} tags: remove one to add another.`);
    } else {
      const found = known.find((tag) => sameTag(tag, slug) || tag.name.toLowerCase() === name.toLowerCase());
      next.push(found ? { id: found.id, name: found.name } : { id: slug, name });
    }
  }
  return { tags: next, left: left.join(', '), problem };
}

/**
 * The video's tags (issue #34, point 1): a chip per tag with its remove button, and a box to type more in (Enter
 * or a comma adds what is typed), suggesting the site's tags. New names are created by the API when the changes
 * are saved; everything stays local until Save Changes.
 */
export function EditVideoTags({ tags, onChange }: EditVideoTagsProps) {
  const id = useId();
  const known = useTaxa('tags');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const suggestions = (known.data?.data ?? []).filter((tag) => !tags.some((own) => own.id === tag.id));

  const add = () => {
    const result = addTypedTags(tags, text, known.data?.data ?? []);
    if (result.tags.length !== tags.length) onChange(result.tags);
    setText(result.left);
    setProblem(result.problem);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the tag rather than saving the form; a comma ends a tag as it would in a list.
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    }
  };

  const remove = (tag: TaxonRef) => {
    onChange(tags.filter((own) => own.id !== tag.id));
    setProblem(null);
    // Its button goes with it: the focus stays in the field.
    input.current?.focus();
  };

  return (
    <fieldset className="edit-video__tags edit-video__wide">
      <legend>Tags</legend>
      {tags.length > 0 ? (
        <ul className="tag-chips" aria-label="Tags of this video">
          {tags.map((tag) => (
            <li className="tag-chips__chip" key={tag.id}>
              <span>{tag.name}</span>
              <button className="tag-chips__remove" type="button" aria-label={`Remove tag ${tag.name}`} onClick={() => remove(tag)}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="edit-video__hint">No tags yet.</p>
      )}
      <div className="edit-video__tag-add">
        <label className="visually-hidden" htmlFor={`${id}-input`}>
          Add a tag
        </label>
        <input
          ref={input}
          id={`${id}-input`}
          type="text"
          list={`${id}-known`}
          placeholder="Add a tag"
          autoComplete="off"
          spellCheck
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={problem && text ? true : undefined}
          aria-describedby={problem ? `${id}-problem ${id}-hint` : `${id}-hint`}
        />
        <datalist id={`${id}-known`}>
          {suggestions.map((tag) => (
            <option key={tag.id} value={tag.name} />
          ))}
        </datalist>
        <button className="button button--quiet" type="button" disabled={!text.trim()} onClick={add}>
          {'Add '}
          <span className="visually-hidden">tag</span>
        </button>
      </div>
      {problem && (
        <p className="form-error" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      )}
      <p className="edit-video__hint" id={`${id}-hint`}>
        Press Enter or a comma to add one; new tags are made when the changes are saved. {tags.length} of{' '}
        {TAGS_PER_VIDEO_MAX}.
      </p>
    </fieldset>
  );
}
