import { useState } from 'react';
import { flushSync } from 'react-dom';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { Video } from '@/lib/api/types';
import { useClearCache } from '../api/clear-cache';
import { useDeleteVideo } from '../api/delete-video';
import { useRefreshViews } from '../api/refresh-views';
import { errorText, failureNotice, useAdminNotice } from './admin-notice';

interface EditVideoActionsProps {
  /** The panel's local copy, sent as the video object to delete. */
  video: Video;
  onDeleted: () => void;
}

const counters = (count: number) => `${count} ${count === 1 ? 'video' : 'videos'}`;

/** The bottom row: Delete Video (after a confirmation dialog), Clear cache and Refresh Views. */
export function EditVideoActions({ video, onDeleted }: EditVideoActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteVideo();
  const clearCache = useClearCache();
  const refreshViews = useRefreshViews();
  const notice = useAdminNotice();

  const confirmDelete = () => {
    // The dialog is gone before the request leaves, as the specification orders it.
    flushSync(() => setConfirming(false));
    remove.mutate(video, {
      onSuccess: () => onDeleted(),
      onError: (error) => {
        console.error('Error deleting video', errorText(error));
        notice.error(failureNotice('The video was not deleted', error));
      },
    });
  };

  const clear = () =>
    clearCache.mutate(undefined, {
      onSuccess: () => notice.success('Cache cleared.'),
      onError: (error) => {
        console.error('Error clearing cache', errorText(error));
        notice.error(failureNotice('The cache was not cleared', error));
      },
    });

  const refresh = () =>
    refreshViews.mutate(undefined, {
      onSuccess: ({ flushed }) =>
        notice.success(`Views refreshed: buffered counts of ${counters(flushed ?? 0)} written.`),
      onError: (error) => {
        console.error('Error refreshing views', errorText(error));
        notice.error(failureNotice('The views were not refreshed', error));
      },
    });

  return (
    <div className="edit-video__actions">
      <button
        className="button button--danger"
        type="button"
        aria-haspopup="dialog"
        disabled={remove.isPending}
        onClick={() => setConfirming(true)}
      >
        Delete Video
      </button>
      <button className="button button--quiet" type="button" disabled={clearCache.isPending} onClick={clear}>
        Clear cache
      </button>
      <button className="button button--quiet" type="button" disabled={refreshViews.isPending} onClick={refresh}>
        Refresh Views
      </button>

      <ConfirmDialog
        open={confirming}
        title="Confirm Deletion"
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        onCancel={() => setConfirming(false)}
      >
        Are you sure you want to delete this video?
      </ConfirmDialog>
    </div>
  );
}
