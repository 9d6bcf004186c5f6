import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, sentBodies } from '@/testing/mock-fetch';
import { callsTo, deferred, renderPanel } from './edit-video-testing';

let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

const notices = () => screen.getByRole('status', { name: 'Notifications' });
const confirmDialog = () => screen.queryByRole('dialog', { name: 'Confirm Deletion' });

describe('edit panel: delete', () => {
  it('opens the Confirm Deletion dialog with its question, Cancel and Delete, the focus on Cancel', async () => {
    const { fetchMock, user } = renderPanel();

    await user.click(screen.getByRole('button', { name: 'Delete Video' }));

    const dialog = within(screen.getByRole('dialog', { name: 'Confirm Deletion' }));
    expect(dialog.getByText('Are you sure you want to delete this video?')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(dialog.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/delete-video')).toHaveLength(0);
  });

  it('Cancel closes the dialog and deletes nothing', async () => {
    const { fetchMock, onDeleted, user } = renderPanel();

    await user.click(screen.getByRole('button', { name: 'Delete Video' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(confirmDialog()).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Video' })).toHaveFocus();
    expect(callsTo(fetchMock, '/api/admin/delete-video')).toHaveLength(0);
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it('Escape closes the dialog and deletes nothing', async () => {
    const { fetchMock, user } = renderPanel();

    await user.click(screen.getByRole('button', { name: 'Delete Video' }));
    await user.keyboard('{Escape}');

    expect(confirmDialog()).not.toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/delete-video')).toHaveLength(0);
  });

  it('Delete closes the dialog, then sends the video, then tells the page once the API agreed', async () => {
    const answer = deferred<Response>();
    let dialogOpenAtRequest: boolean | null = null;
    const { fetchMock, onDeleted, user, video } = renderPanel({
      routes: {
        '/api/admin/delete-video': () => {
          dialogOpenAtRequest = confirmDialog() !== null;
          return answer.promise;
        },
      },
    });

    await user.click(screen.getByRole('button', { name: 'Delete Video' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(callsTo(fetchMock, '/api/admin/delete-video')).toHaveLength(1));
    expect(dialogOpenAtRequest).toBe(false);
    expect(sentBodies(fetchMock, '/api/admin/delete-video')).toEqual([video]);
    expect(screen.getByRole('button', { name: 'Delete Video' })).toBeDisabled();
    expect(onDeleted).not.toHaveBeenCalled();

    answer.resolve(json({ error: null }));

    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
  });

  it('a failed delete logs the error, tells the admin, and does not tell the page', async () => {
    const { onDeleted, user } = renderPanel({
      routes: { '/api/admin/delete-video': () => json({ error: 'Video not found', statusCode: 404 }, 404) },
    });

    await user.click(screen.getByRole('button', { name: 'Delete Video' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error deleting video', 'Video not found'));
    expect(within(notices()).getByText('The video was not deleted: Video not found.')).toBeInTheDocument();
    expect(onDeleted).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Delete Video' })).toBeEnabled();
  });

  it("an error field in a 200 answer is a failure too, logged as 'Unknown error' when it says nothing", async () => {
    const { onDeleted, user } = renderPanel({ routes: { '/api/admin/delete-video': () => ({ error: '' }) } });

    await user.click(screen.getByRole('button', { name: 'Delete Video' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error deleting video', 'Unknown error'));
    expect(within(notices()).getByText('The video was not deleted.')).toBeInTheDocument();
    expect(onDeleted).not.toHaveBeenCalled();
  });
});

describe('edit panel: clear cache', () => {
  it('posts an empty body, waits with the button disabled, and confirms', async () => {
    const answer = deferred<Response>();
    const { fetchMock, user } = renderPanel({ routes: { '/api/admin/clear-cache': () => answer.promise } });

    await user.click(screen.getByRole('button', { name: 'Clear cache' }));

    await waitFor(() => expect(callsTo(fetchMock, '/api/admin/clear-cache')).toHaveLength(1));
    expect(callsTo(fetchMock, '/api/admin/clear-cache')[0][1]?.body).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Clear cache' })).toBeDisabled();

    answer.resolve(json({ error: null }));

    expect(await within(notices()).findByText('Cache cleared.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear cache' })).toBeEnabled();
  });

  it("logs 'Unknown error' for a failure without a message and tells the admin", async () => {
    const { user } = renderPanel({ routes: { '/api/admin/clear-cache': () => new Response('', { status: 500 }) } });

    await user.click(screen.getByRole('button', { name: 'Clear cache' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error clearing cache', 'Unknown error'));
    expect(within(notices()).getByText('The cache was not cleared.')).toBeInTheDocument();
    expect(within(notices()).queryByText('Cache cleared.')).not.toBeInTheDocument();
  });

  it('counts an error field as a failure', async () => {
    const { user } = renderPanel({ routes: { '/api/admin/clear-cache': () => ({ error: 'Redis is down' }) } });

    await user.click(screen.getByRole('button', { name: 'Clear cache' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error clearing cache', 'Redis is down'));
    expect(within(notices()).getByText('The cache was not cleared: Redis is down.')).toBeInTheDocument();
  });
});

describe('edit panel: refresh views', () => {
  it('posts an empty body and says how many buffered counts were written', async () => {
    const answer = deferred<Response>();
    const { fetchMock, user } = renderPanel({ routes: { '/api/admin/refresh-views': () => answer.promise } });

    await user.click(screen.getByRole('button', { name: 'Refresh Views' }));

    await waitFor(() => expect(callsTo(fetchMock, '/api/admin/refresh-views')).toHaveLength(1));
    expect(callsTo(fetchMock, '/api/admin/refresh-views')[0][1]?.body).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Refresh Views' })).toBeDisabled();

    answer.resolve(json({ error: null, flushed: 12 }));

    expect(
      await within(notices()).findByText('Views refreshed: buffered counts of 12 videos written.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Views' })).toBeEnabled();
  });

  it("logs 'Unknown error' for a failure without a message and tells the admin", async () => {
    const { user } = renderPanel({
      routes: { '/api/admin/refresh-views': () => new Response('Service Unavailable', { status: 503 }) },
    });

    await user.click(screen.getByRole('button', { name: 'Refresh Views' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error refreshing views', 'Unknown error'));
    expect(within(notices()).getByText('The views were not refreshed.')).toBeInTheDocument();
  });

  it('counts an error field as a failure', async () => {
    const { user } = renderPanel({
      routes: { '/api/admin/refresh-views': () => ({ error: 'Counter store unavailable', flushed: 0 }) },
    });

    await user.click(screen.getByRole('button', { name: 'Refresh Views' }));

    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith('Error refreshing views', 'Counter store unavailable'),
    );
    expect(within(notices()).getByText('The views were not refreshed: Counter store unavailable.')).toBeInTheDocument();
  });
});

describe('admin notices', () => {
  it('can be dismissed', async () => {
    const { user } = renderPanel({ routes: { '/api/admin/clear-cache': () => ({ error: null }) } });

    await user.click(screen.getByRole('button', { name: 'Clear cache' }));
    await within(notices()).findByText('Cache cleared.');
    await user.click(within(notices()).getByRole('button', { name: 'Dismiss' }));

    expect(notices()).toBeEmptyDOMElement();
  });
});
