import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useClearHistory } from '../api/clear-history';
import { useHistoryPaused } from '../api/get-history-paused';
import { useSetHistoryPaused } from '../api/set-history-paused';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

interface HistoryControlsProps {
  userId: string;
  /** The history is known to hold nothing: there is nothing to clear. */
  empty: boolean;
}

/** Whether watching is recorded, with Pause/Resume, and Clear history behind a confirmation. */
export function HistoryControls({ userId, empty }: HistoryControlsProps) {
  const [, setSearchParams] = useSearchParams();
  const paused = useHistoryPaused(userId);
  const setPaused = useSetHistoryPaused(userId);
  const clear = useClearHistory(userId);
  const [confirming, setConfirming] = useState(false);

  const closeDialog = () => {
    setConfirming(false);
    clear.reset();
  };

  const confirmClear = () =>
    clear.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        // Every page is empty now: show the first, with its empty state.
        setSearchParams(
          (params) => {
            params.delete('page');
            return params;
          },
          { replace: true },
        );
      },
    });

  return (
    <div className="history-controls">
      {paused.isError ? (
        <p className="history-controls__state" role="alert">
          We could not check whether your history is being recorded.{' '}
          <button className="history-controls__retry" type="button" onClick={() => void paused.refetch()}>
            Try again
          </button>
        </p>
      ) : (
        <p className="history-controls__state" role="status">
          {paused.isPending
            ? 'Checking whether your history is being recorded…'
            : paused.data.paused
              ? 'History is paused: videos you watch are not being recorded.'
              : 'Your viewing history is being recorded.'}
        </p>
      )}
      {setPaused.isError && (
        <p className="form-error" role="alert">
          {paused.data?.paused ? 'History could not be resumed.' : 'History could not be paused.'} Try again.
        </p>
      )}
      {clear.isSuccess && !confirming && (
        <p className="history-controls__done" role="status">
          Your history was cleared.
        </p>
      )}

      <div className="history-controls__buttons">
        {paused.data && (
          <button
            className="button button--quiet"
            type="button"
            disabled={setPaused.isPending}
            onClick={() => setPaused.mutate({ paused: !paused.data.paused })}
          >
            {paused.data.paused ? 'Resume history' : 'Pause history'}
          </button>
        )}
        <button className="button button--quiet" type="button" disabled={empty} onClick={() => setConfirming(true)}>
          Clear history
        </button>
      </div>

      <ConfirmDialog
        open={confirming}
        title="Clear your history?"
        confirmLabel="Clear history"
        busy={clear.isPending}
        error={clear.isError ? 'Your history could not be cleared. Try again.' : null}
        onConfirm={confirmClear}
        onCancel={closeDialog}
      >
        Every video will be removed from your viewing history. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
