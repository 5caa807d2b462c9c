import type { ReactNode } from 'react';
import { useOverlay } from '../state/overlays';

interface ConfirmDialogProps {
  /** The overlay's name, so Esc closes the topmost one first. */
  overlay: string;
  title: string;
  /** The dialog's accessible name, where it differs from the title (a title with counts in it). */
  label?: string;
  confirm: string;
  onConfirm(): void;
  onCancel(): void;
  children: ReactNode;
}

/** One yes-or-no question: Enter or the first button goes ahead; Esc, Cancel or a click outside keeps everything. */
export function ConfirmDialog({ overlay, title, label, confirm, onConfirm, onCancel, children }: ConfirmDialogProps) {
  useOverlay(overlay, true, onCancel);
  return (
    <div className="overlay" onClick={onCancel}>
      <form
        className="overlay-card confirm"
        role="alertdialog"
        aria-modal="true"
        aria-label={label ?? title}
        onClick={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          onCancel();
          onConfirm();
        }}
      >
        <h2>{title}</h2>
        <p>{children}</p>
        <div className="row">
          <button type="submit" autoFocus>
            {confirm}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
