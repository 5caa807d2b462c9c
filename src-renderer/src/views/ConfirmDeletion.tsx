import { createPortal } from 'react-dom';
import { plural } from '../../../src-main/common/plural';
import { deleteNode, deleteTrajectory } from '../state/cleanup-actions';
import { useUiStore } from '../state/workspace-actions';
import { ConfirmDialog } from './ConfirmDialog';

/** Asks before a deletion takes more than one node with it, or a whole trajectory; Esc or Cancel keeps everything. */
export function ConfirmDeletion() {
  const pending = useUiStore((s) => s.confirmingDeletion);
  if (!pending) return null;
  const nodes = plural(pending.nodes, 'node');
  const cancel = () => useUiStore.setState({ confirmingDeletion: null });
  const { trajectoryId } = pending;
  if (trajectoryId)
    return createPortal(
      <ConfirmDialog overlay="confirm-deletion" title="Delete this trajectory?" confirm="Delete the trajectory" onCancel={cancel} onConfirm={() => void deleteTrajectory(trajectoryId)}>
        “{pending.action}” with every step in it: {nodes} in all. Ctrl+Z brings it back, even after the workspace is reopened.
      </ConfirmDialog>,
      document.body,
    );
  return createPortal(
    <ConfirmDialog
      overlay="confirm-deletion"
      title={`Delete ${nodes}?`}
      label="Delete these nodes?"
      confirm={`Delete ${nodes}`}
      onCancel={cancel}
      onConfirm={() => void deleteNode(pending.nodeId, true)}
    >
      “{pending.action}” and everything that follows it: {nodes} in all. Ctrl+Z brings them back, even after the workspace is reopened.
    </ConfirmDialog>,
    document.body,
  );
}
