import { useState } from 'react';
import { ApiError } from '@/lib/api/client';
import { useDeletePlaylist } from '../api/delete-playlist';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

interface DeletePlaylistButtonProps {
  playlistId: number;
  title: string;
  userId: string;
  /** Called once the playlist is gone (also when it already was). */
  onDeleted: () => void;
}

/** Delete, behind a dialog that names the playlist; Cancel leaves it be. */
export function DeletePlaylistButton({ playlistId, title, userId, onDeleted }: DeletePlaylistButtonProps) {
  const [open, setOpen] = useState(false);
  const remove = useDeletePlaylist(userId);

  const close = () => {
    setOpen(false);
    remove.reset();
  };

  const confirm = () =>
    remove.mutate(playlistId, {
      onSuccess: () => {
        setOpen(false);
        onDeleted();
      },
      onError: (error) => {
        // Already gone (deleted in another tab): what was asked for is done.
        if (error instanceof ApiError && error.statusCode === 404) {
          setOpen(false);
          onDeleted();
        }
      },
    });

  return (
    <>
      <button
        className="button button--quiet"
        type="button"
        aria-label={`Delete ${title}`}
        onClick={() => setOpen(true)}
      >
        Delete
      </button>
      <ConfirmDialog
        open={open}
        title="Delete this playlist?"
        confirmLabel="Delete playlist"
        busy={remove.isPending}
        error={remove.isError ? 'The playlist could not be deleted. Try again.' : null}
        onConfirm={confirm}
        onCancel={close}
      >
        “{title}” will be deleted. The videos in it stay on the site.
      </ConfirmDialog>
    </>
  );
}
