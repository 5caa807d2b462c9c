import { createPortal } from 'react-dom';
import { plural } from '../../../src-main/common/plural';
import { deleteNode } from '../state/cleanup-actions';
import { useOverlay } from '../state/overlays';
import { useStudio } from '../state/store';

/** Asks before a deletion takes more than one node with it; Esc or Cancel keeps everything. */
export function ConfirmDeletion() {
  const pending = useStudio((s) => s.confirmingDeletion);
  const cancel = () => useStudio.setState({ confirmingDeletion: null });
  useOverlay('confirm-deletion', pending !== null, cancel);
  if (!pending) return null;
  return createPortal(
    <div className="overlay" onClick={cancel}>
      <form
        className="overlay-card confirm"
        role="alertdialog"
        aria-modal="true"
        aria-label="Delete these nodes?"
        onClick={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          cancel();
          void deleteNode(pending.nodeId, true);
        }}
      >
        <h2>Delete {plural(pending.nodes, 'node')}?</h2>
        <p>
          “{pending.action}” and everything that follows it: {plural(pending.nodes, 'node')} in all. Ctrl+Z brings them back, even after the workspace is
          reopened.
        </p>
        <div className="row">
          <button type="submit" autoFocus>
            Delete {plural(pending.nodes, 'node')}
          </button>
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </div>
      </form>
    </div>,
    document.body,
  );
}
