import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/client';
import { AdminNoticeProvider, errorText, failureNotice, useAdminNotice } from './admin-notice';

function Raiser() {
  const notice = useAdminNotice();
  return (
    <>
      <button type="button" onClick={() => notice.success('Saved.')}>
        ok
      </button>
      <button type="button" onClick={() => notice.error('Not saved.')}>
        fail
      </button>
    </>
  );
}

const notices = () => within(screen.getByRole('status', { name: 'Notifications' }));

describe('admin notices', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a success for 5 seconds and a failure for 10, in a polite live region', () => {
    render(
      <AdminNoticeProvider>
        <Raiser />
      </AdminNoticeProvider>,
    );
    expect(screen.getByRole('status', { name: 'Notifications' })).toHaveAttribute('aria-live', 'polite');

    fireEvent.click(screen.getByRole('button', { name: 'ok' }));
    fireEvent.click(screen.getByRole('button', { name: 'fail' }));
    expect(notices().getByText('Saved.')).toBeInTheDocument();
    expect(notices().getByText('Not saved.')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(5000));
    expect(notices().queryByText('Saved.')).not.toBeInTheDocument();
    expect(notices().getByText('Not saved.')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(5000));
    expect(notices().queryByText('Not saved.')).not.toBeInTheDocument();
  });

  it('keeps the three newest', () => {
    render(
      <AdminNoticeProvider>
        <Raiser />
      </AdminNoticeProvider>,
    );

    for (let i = 0; i < 4; i += 1) fireEvent.click(screen.getByRole('button', { name: i === 0 ? 'fail' : 'ok' }));

    expect(notices().queryByText('Not saved.')).not.toBeInTheDocument();
    expect(notices().getAllByText('Saved.')).toHaveLength(3);
  });

  it('needs the provider of the admin shell', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Raiser />)).toThrow(/AdminNoticeProvider/);
  });
});

describe('failure texts', () => {
  it("logs the server's message, a network failure's message, or 'Unknown error'", () => {
    expect(errorText(new ApiError({ error: 'Slug is already taken', statusCode: 409 }))).toBe('Slug is already taken');
    expect(errorText(new ApiError({ error: 'Bad Gateway', statusCode: 502 }, false))).toBe('Unknown error');
    expect(errorText(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorText('nothing useful')).toBe('Unknown error');
  });

  it("adds the server's reason to the notice when there is one", () => {
    expect(failureNotice('Not saved', new ApiError({ error: 'Slug is already taken', statusCode: 409 }))).toBe(
      'Not saved: Slug is already taken.',
    );
    expect(failureNotice('Not saved', new ApiError({ error: 'Unknown category: x.', statusCode: 400 }))).toBe(
      'Not saved: Unknown category: x.',
    );
    expect(failureNotice('Not saved', new TypeError('Failed to fetch'))).toBe('Not saved.');
  });
});
