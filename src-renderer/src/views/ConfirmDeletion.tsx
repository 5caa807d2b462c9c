import { createPortal } from 'react-dom';
import { plural } from '../../../src-main/common/plural';
import { deleteNode } from '../state/cleanup-actions';
import { useUiStore } from '../state/workspace-actions';
import { ConfirmDialog } from './ConfirmDialog';

/** Asks before a deletion takes more than one node with it; Esc or Cancel keeps everything. */
export function ConfirmDeletion() {
  const pending = useUiStore((s) => s.confirmingDeletion);
  if (!pending) return null;
  const nodes = plural(pending.nodes, 'node');
  return createPortal(
    <ConfirmDialog
      overlay="confirm-deletion"
      title={`Delete ${nodes}?`}
      label="Delete these nodes?"
      confirm={`Delete ${nodes}`}
      onCancel={() => useUiStore.setState({ confirmingDeletion: null })}
      onConfirm={() => void deleteNode(pending.nodeId, true)}
    >
      “{pending.action}” and everything that follows it: {nodes} in all. Ctrl+Z brings them back, even after the workspace is reopened.
    </ConfirmDialog>,
    document.body,
  );
}
