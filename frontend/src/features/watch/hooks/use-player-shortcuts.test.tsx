import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type PlayerShortcuts, usePlayerShortcuts } from './use-player-shortcuts';

function setup(overrides: Partial<PlayerShortcuts> = {}) {
  const calls: string[] = [];
  const shortcuts: PlayerShortcuts = {
    togglePlay: () => calls.push('play'),
    seekBy: (seconds) => calls.push(`seek ${seconds}`),
    seekToFraction: (fraction) => calls.push(`fraction ${fraction}`),
    changeVolume: (by) => calls.push(`volume ${by}`),
    toggleFullscreen: () => calls.push('fullscreen'),
    toggleMute: () => calls.push('mute'),
    toggleTheater: () => calls.push('theater'),
    toggleCaptions: () => calls.push('captions'),
    next: () => calls.push('next'),
    previous: () => calls.push('previous'),
    showHelp: () => calls.push('help'),
    ...overrides,
  };
  function Page() {
    usePlayerShortcuts(shortcuts);
    return (
      <div>
        <input aria-label="Search" />
        <button type="button">Like</button>
      </div>
    );
  }
  const view = render(<Page />);
  return { calls, view };
}

describe('usePlayerShortcuts', () => {
  it('drives the player from the keys the help lists', () => {
    const { calls } = setup();
    for (const key of [' ', 'k', 'K', 'j', 'l', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'f', 'm', 't', 'c', '0', '5', '9']) {
      fireEvent.keyDown(document.body, { key });
    }
    fireEvent.keyDown(document.body, { key: 'N', shiftKey: true });
    fireEvent.keyDown(document.body, { key: 'P', shiftKey: true });
    fireEvent.keyDown(document.body, { key: '?', shiftKey: true });
    expect(calls).toEqual([
      'play', 'play', 'play', 'seek -10', 'seek 10', 'seek -5', 'seek 5', 'volume 0.1', 'volume -0.1', 'fullscreen', 'mute', 'theater', 'captions',
      'fraction 0', 'fraction 0.5', 'fraction 0.9', 'next', 'previous', 'help',
    ]);
  });

  it('leaves keys alone while typing, on a focused button, with a modifier, or where the page has no next video', () => {
    const { calls, view } = setup({ next: undefined });
    const field = view.getByRole('textbox', { name: 'Search' });
    for (const key of ['k', ' ', '5', 'f', 'ArrowUp']) fireEvent.keyDown(field, { key });
    fireEvent.keyDown(view.getByRole('button', { name: 'Like' }), { key: ' ' });
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    fireEvent.keyDown(document.body, { key: 'l', metaKey: true });
    // Shift with a key the list does not name, and Shift+N without a next video.
    fireEvent.keyDown(document.body, { key: 'F', shiftKey: true });
    fireEvent.keyDown(document.body, { key: 'N', shiftKey: true });
    expect(calls).toEqual([]);
  });

  it('takes the key from the page (no scrolling on arrows or space) only when it acts', () => {
    setup();
    const acted = new KeyboardEvent('keydown', { key: 'ArrowDown', cancelable: true, bubbles: true });
    document.body.dispatchEvent(acted);
    expect(acted.defaultPrevented).toBe(true);
    const ignored = new KeyboardEvent('keydown', { key: 'x', cancelable: true, bubbles: true });
    document.body.dispatchEvent(ignored);
    expect(ignored.defaultPrevented).toBe(false);
  });

  it('uses the newest callbacks after a render', () => {
    const first = vi.fn();
    const second = vi.fn();
    function Page({ toggle }: { toggle: () => void }) {
      usePlayerShortcuts({ togglePlay: toggle, seekBy: vi.fn(), seekToFraction: vi.fn(), changeVolume: vi.fn(), toggleFullscreen: vi.fn(), toggleMute: vi.fn(), showHelp: vi.fn() });
      return null;
    }
    const view = render(<Page toggle={first} />);
    view.rerender(<Page toggle={second} />);
    fireEvent.keyDown(document.body, { key: 'k' });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});
