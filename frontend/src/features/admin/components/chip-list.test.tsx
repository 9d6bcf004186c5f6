import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ChipList } from './chip-list';

interface HarnessProps {
  initial: string[];
  addKeys?: readonly string[];
  problem?: string | null;
  describedBy?: string;
  onSubmit?: () => void;
}

/** A chip list of words in a form: the caller's side kept as simply as it goes (add what is typed, remove by value). */
function Harness({ initial, addKeys, problem = null, describedBy, onSubmit = () => {} }: HarnessProps) {
  const [items, setItems] = useState(initial);
  const [text, setText] = useState('');
  const add = () => {
    if (!text.trim()) return;
    setItems([...items, text.trim()]);
    setText('');
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <ChipList
        className="words"
        legend="Words"
        label="Words of this test"
        noun="word"
        items={items}
        keyOf={(word) => word}
        nameOf={(word) => word}
        empty="No words yet."
        text={text}
        onTextChange={setText}
        onAdd={add}
        onRemove={(word) => setItems(items.filter((own) => own !== word))}
        addKeys={addKeys}
        problem={problem}
        invalid={Boolean(problem)}
        describedBy={describedBy}
        input={{ type: 'text', placeholder: 'a word' }}
        hint={`${items.length} of 5.`}
      />
    </form>
  );
}

const box = () => screen.getByRole('textbox', { name: 'Add a word' });
const chips = () => within(screen.getByRole('list', { name: 'Words of this test' })).getAllByRole('listitem').map((chip) => chip.textContent);

describe('ChipList', () => {
  it('shows a chip per item with its remove button, or the empty text', async () => {
    const user = userEvent.setup();
    render(<Harness initial={['one', 'two']} />);

    expect(screen.getByRole('group', { name: 'Words' })).toHaveClass('words');
    expect(chips()).toEqual(['one×', 'two×']);
    expect(screen.getByText('2 of 5.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove word one' }));
    await user.click(screen.getByRole('button', { name: 'Remove word two' }));
    expect(screen.queryByRole('list', { name: 'Words of this test' })).not.toBeInTheDocument();
    expect(screen.getByText('No words yet.')).toBeInTheDocument();
  });

  it('adds with Enter or the Add button, without sending the form, and keeps the focus in the box when a chip goes', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Harness initial={[]} onSubmit={onSubmit} />);

    expect(screen.getByRole('button', { name: 'Add word' })).toBeDisabled();
    await user.type(box(), 'first{Enter}');
    await user.type(box(), 'second');
    await user.click(screen.getByRole('button', { name: 'Add word' }));
    expect(chips()).toEqual(['first×', 'second×']);
    expect(box()).toHaveValue('');
    expect(onSubmit).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Remove word first' }));
    expect(box()).toHaveFocus();
  });

  it('adds with the keys it is given instead of typing them', async () => {
    const user = userEvent.setup();
    render(<Harness initial={[]} addKeys={['Enter', ',']} />);

    await user.type(box(), 'one,two{Enter}');
    expect(chips()).toEqual(['one×', 'two×']);
  });

  it('shows the problem and points the box at it, the further reason and the hint', () => {
    render(<Harness initial={[]} problem="Not a word." describedBy="form-problem" />);

    const problem = screen.getByRole('alert');
    expect(problem).toHaveTextContent('Not a word.');
    const hint = screen.getByText('0 of 5.');
    expect(box()).toHaveAttribute('aria-invalid', 'true');
    expect(box().getAttribute('aria-describedby')).toBe(`${problem.id} form-problem ${hint.id}`);
  });

  it('is not marked invalid without a problem, and is described by its hint alone', () => {
    render(<Harness initial={[]} />);

    expect(box()).not.toHaveAttribute('aria-invalid');
    expect(box().getAttribute('aria-describedby')).toBe(screen.getByText('0 of 5.').id);
  });
});
