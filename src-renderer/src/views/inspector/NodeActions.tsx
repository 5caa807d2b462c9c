import type { NodeRecord } from '../../../../src-main/common/trajectory/model';
import { deleteNode } from '../../state/cleanup-actions';
import { CopyableId } from './CopyableId';

/** The node's id (what `worldloom simulate --node` takes) and its delete action; Ctrl+Z brings a deletion back. */
export function NodeActions({ node }: { node: NodeRecord }) {
  const isRoot = node.parentId === null;
  return (
    <div className="node-actions">
      <CopyableId id={node.id} what="node id" testId="node-id" />
      <button
        type="button"
        className="danger small"
        title={isRoot ? 'Delete the whole trajectory (Ctrl+Z brings it back)' : 'Delete this node, the steps below it and its edits (Delete key; Ctrl+Z brings them back)'}
        onClick={() => void deleteNode(node.id)}
      >
        {isRoot ? 'Delete trajectory' : 'Delete'}
      </button>
    </div>
  );
}
