import { useId, useRef, type InputHTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';

interface ChipListProps<T> {
  /** The fieldset's classes (it sits in the edit panel's or the zone form's grid). */
  className: string;
  legend: string;
  /** The list's name ("Tags of this video"). */
  label: string;
  /** What one item is called: the box is "Add a {noun}", its button "Add {noun}", a chip's "Remove {noun} {name}". */
  noun: string;
  items: readonly T[];
  keyOf: (item: T) => string;
  nameOf: (item: T) => string;
  /** Shown instead of the list when there is no item. */
  empty: string;
  /** The box's text: the caller keeps it, as what stays after an add is its rule. */
  text: string;
  onTextChange: (text: string) => void;
  /** Adds what is typed: Enter (or one of `addKeys`) in the box, or the Add button. */
  onAdd: () => void;
  onRemove: (item: T) => void;
  /** The keys that add what is typed rather than being typed; Enter (which would send the form) by default. */
  addKeys?: readonly string[];
  /** Why the last add was refused, shown under the box. */
  problem: string | null;
  /** Whether the box is marked invalid. */
  invalid: boolean;
  /** The id of a further reason the box is invalid (the form's), read between the problem and the hint. */
  describedBy?: string;
  /** The box's own attributes. */
  input: Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'placeholder' | 'spellCheck' | 'list'>;
  /** What goes after the box (a datalist of suggestions). */
  children?: ReactNode;
  /** The hint under the box. */
  hint: ReactNode;
}

/**
 * A list edited as chips (the video's tags, a zone's hosts): a chip per item with its remove button, and a box to
 * type one in. The caller keeps the items, the text and the reason an add was refused; this keeps the focus in
 * the box when a chip's button goes, and Enter from sending the form.
 */
export function ChipList<T>({
  className,
  legend,
  label,
  noun,
  items,
  keyOf,
  nameOf,
  empty,
  text,
  onTextChange,
  onAdd,
  onRemove,
  addKeys = ['Enter'],
  problem,
  invalid,
  describedBy,
  input,
  children,
  hint,
}: ChipListProps<T>) {
  const id = useId();
  const box = useRef<HTMLInputElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (addKeys.includes(event.key)) {
      event.preventDefault();
      onAdd();
    }
  };

  const remove = (item: T) => {
    onRemove(item);
    // Its button goes with it: the focus stays in the field.
    box.current?.focus();
  };

  const described = [problem && `${id}-problem`, describedBy, `${id}-hint`].filter(Boolean).join(' ');

  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      {items.length > 0 ? (
        <ul className="tag-chips" aria-label={label}>
          {items.map((item) => (
            <li className="tag-chips__chip" key={keyOf(item)}>
              <span>{nameOf(item)}</span>
              <button className="tag-chips__remove" type="button" aria-label={`Remove ${noun} ${nameOf(item)}`} onClick={() => remove(item)}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="edit-video__hint">{empty}</p>
      )}
      <div className="edit-video__tag-add">
        <label className="visually-hidden" htmlFor={`${id}-input`}>
          {`Add a ${noun}`}
        </label>
        <input
          {...input}
          ref={box}
          id={`${id}-input`}
          autoComplete="off"
          value={text}
          onChange={(event) => onTextChange(event.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={described}
        />
        {children}
        <button className="button button--quiet" type="button" disabled={!text.trim()} onClick={() => onAdd()}>
          {'Add '}
          <span className="visually-hidden">{noun}</span>
        </button>
      </div>
      {problem && (
        <p className="form-error" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      )}
      <p className="edit-video__hint" id={`${id}-hint`}>
        {hint}
      </p>
    </fieldset>
  );
}
