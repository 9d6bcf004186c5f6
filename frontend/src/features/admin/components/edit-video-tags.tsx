import { slugify, TAGS_PER_VIDEO_MAX, TAXON_NAME_MAX_LENGTH } from '@hunktube/shared';
import { useId, useState } from 'react';
import { useTaxa } from '@/api/taxonomy/get-taxa';
import type { Taxon, TaxonRef } from '@/lib/api/types';
import { ChipList } from './chip-list';

interface EditVideoTagsProps {
  /** The video's tags in the panel's local copy. */
  tags: TaxonRef[];
  onChange: (tags: TaxonRef[]) => void;
}

/** Enter adds the tag rather than saving the form; a comma ends a tag as it would in a list. */
const ADD_KEYS = ['Enter', ','] as const;

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

  const suggestions = (known.data?.data ?? []).filter((tag) => !tags.some((own) => own.id === tag.id));

  const add = () => {
    const result = addTypedTags(tags, text, known.data?.data ?? []);
    if (result.tags.length !== tags.length) onChange(result.tags);
    setText(result.left);
    setProblem(result.problem);
  };

  const remove = (tag: TaxonRef) => {
    onChange(tags.filter((own) => own.id !== tag.id));
    setProblem(null);
  };

  return (
    <ChipList
      className="edit-video__tags edit-video__wide"
      legend="Tags"
      label="Tags of this video"
      noun="tag"
      items={tags}
      keyOf={(tag) => tag.id}
      nameOf={(tag) => tag.name}
      empty="No tags yet."
      text={text}
      onTextChange={setText}
      onAdd={add}
      onRemove={remove}
      addKeys={ADD_KEYS}
      problem={problem}
      invalid={Boolean(problem && text)}
      input={{ type: 'text', list: `${id}-known`, placeholder: 'Add a tag', spellCheck: true }}
      hint={
        <>
          Press Enter or a comma to add one; new tags are made when the changes are saved. {tags.length} of{' '}
          {TAGS_PER_VIDEO_MAX}.
        </>
      }
    >
      <datalist id={`${id}-known`}>
        {suggestions.map((tag) => (
          <option key={tag.id} value={tag.name} />
        ))}
      </datalist>
    </ChipList>
  );
}
