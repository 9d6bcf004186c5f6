import type { ReactNode } from 'react';
import { Dialog } from '@/components/ui/dialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What will happen, in a sentence. */
  children: ReactNode;
  confirmLabel: string;
  /** True while the confirmed action runs: the buttons wait. */
  busy?: boolean;
  /** Why the action failed, shown inside the dialog. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before something that cannot be undone; Cancel (focused first), Escape and the backdrop do nothing. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, children, confirmLabel, busy = false, error, onConfirm, onCancel } = props;
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <div className="confirm">
        <p className="confirm__text">{children}</p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="confirm__buttons">
          <button className="button button--quiet" type="button" data-autofocus onClick={onCancel}>
            Cancel
          </button>
          <button className="button button--danger" type="button" disabled={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
