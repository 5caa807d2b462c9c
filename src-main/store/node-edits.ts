// Edits of a node's state, and undoing them. Nodes are immutable: an edit is a new node
// beside the original (same parent) that points back to it. Undoing an edit is the one
// case where a node leaves the workspace, and only a leaf that an edit created may; it is
// kept in `undone_edits` so a redo puts back exactly the same node, id and marks included.
import type Database from 'better-sqlite3';
import { newId } from '../common/trajectory/ids';
import { EMPTY_CURATION, NodeRecord } from '../common/trajectory/model';
import type { NodeSearch } from './node-search';
import { WorkspaceError } from './workspace-error';
import { INSERT_NODE_SQL, nodeParams, toNode, type NodeRow } from './rows';
import { logNodeAdded } from './change-log';

export class NodeEdits {
  constructor(
    private readonly db: Database.Database,
    private readonly search: NodeSearch,
  ) {}

  private node(id: string): NodeRecord {
    const row = this.db.prepare(`SELECT * FROM nodes WHERE id = ?`).get(id) as NodeRow | undefined;
    if (!row) throw new WorkspaceError(`Node ${id} does not exist in this workspace.`, 'not-found');
    return toNode(row);
  }

  /** Writes the edited state as a new sibling of the original and returns it. */
  edit(id: string, change: { action: string; observation: string }): NodeRecord {
    const original = this.node(id);
    if (original.parentId === null) {
      throw new WorkspaceError('The initial state is where the trajectory starts and cannot be edited; start a new trajectory from the edited state instead.', 'invalid');
    }
    if (original.action === change.action && original.observation === change.observation) {
      throw new WorkspaceError('Nothing changed: the action and the observation are the same as the original. Change one of them, then save.', 'invalid');
    }
    const node: NodeRecord = {
      ...original,
      id: newId(),
      editedFromId: original.id,
      action: change.action,
      observation: change.observation,
      // The reasoning explained the original observation, not the edited one.
      reasoning: null,
      origin: 'edited',
      provenance: { source: { format: 'edit' }, editedFromOrigin: original.origin },
      curation: EMPTY_CURATION,
      metrics: null,
      createdAt: new Date().toISOString(),
    };
    this.db.prepare(INSERT_NODE_SQL).run(nodeParams(node));
    logNodeAdded(this.db, node.trajectoryId, node.id);
    return node;
  }

  /** Takes back an edit: removes the edit's node, which must be an untouched leaf. */
  undo(id: string): NodeRecord {
    return this.db.transaction(() => {
      const node = this.node(id);
      if (node.origin !== 'edited' || node.editedFromId === null) {
        throw new WorkspaceError(`Node ${id} was not created by an edit; only an edit can be undone, and nothing else is ever removed.`, 'invalid');
      }
      const dependants = this.db
        .prepare(`SELECT COUNT(*) FROM nodes WHERE parent_id = ? OR edited_from_id = ?`)
        .pluck()
        .get(id, id) as number;
      if (dependants > 0) {
        throw new WorkspaceError(`The edit ${id} already has steps after it or edits of its own, so it stays; edit it again instead.`, 'invalid');
      }
      this.db
        .prepare(`INSERT OR REPLACE INTO undone_edits (id, trajectory_id, node, undone_at) VALUES (?, ?, ?, ?)`)
        .run(id, node.trajectoryId, JSON.stringify(node), new Date().toISOString());
      this.search.forgetNode(id);
      this.db.prepare(`DELETE FROM nodes WHERE id = ?`).run(id);
      return node;
    }).immediate();
  }

  /** Redoes an undone edit: the same node comes back where it was. */
  redo(id: string): NodeRecord {
    return this.db.transaction(() => {
      const kept = this.db.prepare(`SELECT node FROM undone_edits WHERE id = ?`).pluck().get(id) as string | undefined;
      if (!kept) throw new WorkspaceError(`There is no undone edit ${id} to redo.`, 'invalid');
      const node = NodeRecord.parse(JSON.parse(kept));
      if (node.parentId) this.node(node.parentId);
      if (node.editedFromId) this.node(node.editedFromId);
      this.db.prepare(INSERT_NODE_SQL).run(nodeParams(node));
      logNodeAdded(this.db, node.trajectoryId, node.id);
      this.db.prepare(`DELETE FROM undone_edits WHERE id = ?`).run(id);
      return node;
    }).immediate();
  }
}
