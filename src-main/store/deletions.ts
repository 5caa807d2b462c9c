// Deleting nodes, subtrees and whole trajectories so that nothing is lost: the rows move,
// column for column and with their rowids, into `deleted_nodes` / `deleted_trajectories`
// under one deletion, which a restore puts back exactly (ids, marks, place among siblings).
// Deletions live in the workspace file, so they can be taken back after a reload too.
import type Database from 'better-sqlite3';
import { newId } from '../common/trajectory/ids';
import type { NodeRecord, TrajectoryRecord } from '../common/trajectory/model';
import type { NodeSearch } from './node-search';
import { toNode, toTrajectory, type NodeRow, type TrajectoryRow } from './rows';
import { WorkspaceError } from './workspace-error';

/** The newest deletions kept for a restore; older ones are dropped as new ones come. */
export const KEPT_DELETIONS = 200;

const NODE_COLUMNS = `id, trajectory_id, parent_id, edited_from_id, depth, action, observation, reasoning, origin,
  provenance, starred, rating, tags, note, metrics, created_at, agent_reasoning`;
const TRAJECTORY_COLUMNS = `id, title, domain, system_prompt, world_spec, source_key, created_at`;

export interface DeletionSummary {
  id: string;
  kind: 'nodes' | 'trajectories';
  /** What was deleted, in the user's words ("3 nodes from step 2 of ls"). */
  label: string;
  /** What the user asked to delete: node ids, or trajectory ids. Deleting them again redoes it. */
  roots: string[];
  /** The trajectory the nodes came from (null when whole trajectories were deleted). */
  trajectoryId: string | null;
  nodes: number;
  trajectories: number;
  deletedAt: string;
}

export interface Deleted {
  deletion: DeletionSummary;
  /** The nodes removed from trajectories that stay (empty when whole trajectories went). */
  nodes: NodeRecord[];
  trajectoryIds: string[];
}

export interface Restored {
  nodes: NodeRecord[];
  trajectories: TrajectoryRecord[];
}

interface DeletionRow {
  id: string;
  kind: 'nodes' | 'trajectories';
  label: string;
  roots: string;
  trajectory_id: string | null;
  nodes: number;
  trajectories: number;
  deleted_at: string;
}

function toSummary(r: DeletionRow): DeletionSummary {
  return {
    id: r.id,
    kind: r.kind,
    label: r.label,
    roots: JSON.parse(r.roots) as string[],
    trajectoryId: r.trajectory_id,
    nodes: r.nodes,
    trajectories: r.trajectories,
    deletedAt: r.deleted_at,
  };
}

export class Deletions {
  constructor(
    private readonly db: Database.Database,
    private readonly search: NodeSearch,
  ) {
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS doomed_nodes (id TEXT PRIMARY KEY)`);
  }

  /**
   * Deletes nodes with everything that depends on them: the steps below them and the edits made
   * of them (an edit points to its original). Roots of trajectories cannot be deleted this way.
   * Call inside a transaction.
   */
  deleteNodes(ids: readonly string[], label: string): Deleted {
    const roots = [...new Set(ids)];
    const found = this.db.prepare(`SELECT id, trajectory_id, parent_id FROM nodes WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(roots)) as {
      id: string;
      trajectory_id: string;
      parent_id: string | null;
    }[];
    const missing = roots.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw new WorkspaceError(`Node ${missing[0]} is not in this workspace (it may have been deleted already).`, 'not-found');
    if (found.some((f) => f.parent_id === null)) {
      throw new WorkspaceError('The initial state is where its trajectory starts: delete the whole trajectory instead.', 'invalid');
    }
    const trajectories = new Set(found.map((f) => f.trajectory_id));
    if (trajectories.size !== 1) throw new WorkspaceError('Nodes of one trajectory at a time can be deleted together.', 'invalid');
    const trajectoryId = found[0]!.trajectory_id;

    this.db.exec(`DELETE FROM temp.doomed_nodes`);
    this.db
      .prepare(
        `INSERT INTO temp.doomed_nodes (id)
         WITH RECURSIVE doomed(id) AS (
           SELECT value FROM json_each(?)
           UNION SELECT n.id FROM nodes n JOIN doomed d ON n.parent_id = d.id
           UNION SELECT n.id FROM nodes n JOIN doomed d ON n.edited_from_id = d.id
         ) SELECT id FROM doomed`,
      )
      .run(JSON.stringify(roots));
    const nodes = (this.db.prepare(`SELECT * FROM nodes WHERE id IN (SELECT id FROM temp.doomed_nodes) ORDER BY rowid`).all() as NodeRow[]).map(toNode);
    const deletion = this.addDeletion('nodes', label, roots, trajectoryId, nodes.length, 0);
    this.db
      .prepare(`INSERT INTO deleted_nodes (deletion_id, row_id, ${NODE_COLUMNS}) SELECT ?, rowid, ${NODE_COLUMNS} FROM nodes WHERE id IN (SELECT id FROM temp.doomed_nodes) ORDER BY rowid`)
      .run(deletion.id);
    for (const n of nodes) this.search.forgetText(n.id);
    this.db.prepare(`DELETE FROM nodes WHERE id IN (SELECT id FROM temp.doomed_nodes)`).run();
    this.db.exec(`DELETE FROM temp.doomed_nodes`);
    this.search.afterRowsDeleted();
    this.prune();
    return { deletion, nodes, trajectoryIds: [] };
  }

  /** Deletes whole trajectories, every node of them. Call inside a transaction. */
  deleteTrajectories(ids: readonly string[], label: string): Deleted {
    const unique = [...new Set(ids)];
    const missing = unique.filter((id) => !this.db.prepare(`SELECT 1 FROM trajectories WHERE id = ?`).get(id));
    if (missing.length) throw new WorkspaceError(`Trajectory ${missing[0]} is not in this workspace (it may have been deleted already).`, 'not-found');
    const nodeCount = this.db.prepare(`SELECT COUNT(*) FROM nodes WHERE trajectory_id IN (SELECT value FROM json_each(?))`).pluck().get(JSON.stringify(unique)) as number;
    const deletion = this.addDeletion('trajectories', label, unique, unique.length === 1 ? unique[0]! : null, nodeCount, unique.length);
    const copyTrajectory = this.db.prepare(
      `INSERT INTO deleted_trajectories (deletion_id, row_id, ${TRAJECTORY_COLUMNS}) SELECT ?, rowid, ${TRAJECTORY_COLUMNS} FROM trajectories WHERE id = ?`,
    );
    const copyNodes = this.db.prepare(
      `INSERT INTO deleted_nodes (deletion_id, row_id, ${NODE_COLUMNS}) SELECT ?, rowid, ${NODE_COLUMNS} FROM nodes WHERE trajectory_id = ? ORDER BY rowid`,
    );
    const removeNodes = this.db.prepare(`DELETE FROM nodes WHERE trajectory_id = ?`);
    const removeTrajectory = this.db.prepare(`DELETE FROM trajectories WHERE id = ?`);
    for (const id of unique) {
      copyTrajectory.run(deletion.id, id);
      copyNodes.run(deletion.id, id);
      this.search.forgetTrajectory(id);
      removeNodes.run(id);
      removeTrajectory.run(id);
    }
    this.search.afterRowsDeleted();
    this.prune();
    return { deletion, nodes: [], trajectoryIds: unique };
  }

  /** Puts a deletion back: the same rows, ids and marks, where they were. Call inside a transaction. */
  restore(deletionId: string): Restored & { deletion: DeletionSummary } {
    const row = this.db.prepare(`SELECT * FROM deletions WHERE id = ?`).get(deletionId) as DeletionRow | undefined;
    if (!row) throw new WorkspaceError(`There is no deletion ${deletionId} to take back (it was restored already, or dropped as one of the oldest).`, 'not-found');
    const deletion = toSummary(row);
    const trajectoryRows = this.db.prepare(`SELECT * FROM deleted_trajectories WHERE deletion_id = ? ORDER BY row_id`).all(deletionId) as (TrajectoryRow & { row_id: number })[];
    for (const t of trajectoryRows) {
      const clash = this.db.prepare(`SELECT title FROM trajectories WHERE id = ? OR (source_key IS NOT NULL AND source_key = ?)`).pluck().get(t.id, t.source_key) as string | undefined;
      if (clash !== undefined) {
        throw new WorkspaceError(`“${t.title}” cannot come back: “${clash}” was imported again from the same source since. Delete that one first, then restore.`, 'invalid');
      }
      this.db
        .prepare(
          `INSERT INTO trajectories (rowid, ${TRAJECTORY_COLUMNS})
           SELECT CASE WHEN EXISTS (SELECT 1 FROM trajectories WHERE rowid = row_id) THEN NULL ELSE row_id END, ${TRAJECTORY_COLUMNS}
           FROM deleted_trajectories WHERE deletion_id = ? AND id = ?`,
        )
        .run(deletionId, t.id);
    }
    const broken = this.db
      .prepare(
        `SELECT d.id, d.parent_id AS missing FROM deleted_nodes d
         WHERE d.deletion_id = ? AND d.parent_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = d.parent_id)
           AND NOT EXISTS (SELECT 1 FROM deleted_nodes o WHERE o.deletion_id = d.deletion_id AND o.id = d.parent_id)
         UNION ALL
         SELECT d.id, d.edited_from_id FROM deleted_nodes d
         WHERE d.deletion_id = ? AND d.edited_from_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = d.edited_from_id)
           AND NOT EXISTS (SELECT 1 FROM deleted_nodes o WHERE o.deletion_id = d.deletion_id AND o.id = d.edited_from_id)
         LIMIT 1`,
      )
      .get(deletionId, deletionId) as { id: string; missing: string } | undefined;
    if (broken) {
      throw new WorkspaceError(
        `These nodes hang from node ${broken.missing}, which was deleted after them. Restore that deletion first (undo goes in order), then this one.`,
        'invalid',
      );
    }
    const clash = this.db.prepare(`SELECT d.id FROM deleted_nodes d JOIN nodes n ON n.id = d.id WHERE d.deletion_id = ? LIMIT 1`).pluck().get(deletionId) as string | undefined;
    if (clash) throw new WorkspaceError(`Node ${clash} is in the workspace again already; nothing was restored.`, 'invalid');
    // Rows go back under their old rowids (sibling order, and the search index's mark) unless another row took one since.
    this.db
      .prepare(
        `INSERT INTO nodes (rowid, ${NODE_COLUMNS})
         SELECT CASE WHEN EXISTS (SELECT 1 FROM nodes n WHERE n.rowid = d.row_id) THEN NULL ELSE d.row_id END, ${NODE_COLUMNS.replace(/(\w+)/g, 'd.$1')}
         FROM deleted_nodes d WHERE d.deletion_id = ? ORDER BY d.row_id`,
      )
      .run(deletionId);
    // Each node back is logged as added (migration 6: the store logs nodes, no trigger does).
    this.db
      .prepare(`INSERT INTO change_log (kind, trajectory_id, node_id) SELECT 'node-added', trajectory_id, id FROM deleted_nodes WHERE deletion_id = ? ORDER BY row_id`)
      .run(deletionId);
    const ids = this.db.prepare(`SELECT id FROM deleted_nodes WHERE deletion_id = ? ORDER BY row_id`).pluck().all(deletionId) as string[];
    for (const id of ids) this.search.indexText(id);
    this.db.prepare(`DELETE FROM deletions WHERE id = ?`).run(deletionId);
    const trajectories = trajectoryRows.map((t) => toTrajectory(t));
    const nodes =
      deletion.kind === 'nodes'
        ? (this.db.prepare(`SELECT * FROM nodes WHERE id IN (SELECT value FROM json_each(?)) ORDER BY rowid`).all(JSON.stringify(ids)) as NodeRow[]).map(toNode)
        : [];
    return { deletion, nodes, trajectories };
  }

  /** The newest deletions first. */
  list(limit = 50): DeletionSummary[] {
    return (this.db.prepare(`SELECT * FROM deletions ORDER BY rowid DESC LIMIT ?`).all(limit) as DeletionRow[]).map(toSummary);
  }

  /** A node as it was when it was last deleted (for telling other windows what went), if kept. */
  deletedNode(id: string): NodeRecord | undefined {
    const row = this.db.prepare(`SELECT * FROM deleted_nodes WHERE id = ? ORDER BY rowid DESC LIMIT 1`).get(id) as NodeRow | undefined;
    return row && toNode(row);
  }

  private addDeletion(kind: DeletionSummary['kind'], label: string, roots: string[], trajectoryId: string | null, nodes: number, trajectories: number): DeletionSummary {
    const deletion: DeletionSummary = { id: newId(), kind, label, roots, trajectoryId, nodes, trajectories, deletedAt: new Date().toISOString() };
    this.db
      .prepare(`INSERT INTO deletions (id, kind, label, roots, trajectory_id, nodes, trajectories, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(deletion.id, kind, label, JSON.stringify(roots), trajectoryId, nodes, trajectories, deletion.deletedAt);
    return deletion;
  }

  private prune(): void {
    this.db.prepare(`DELETE FROM deletions WHERE rowid NOT IN (SELECT rowid FROM deletions ORDER BY rowid DESC LIMIT ?)`).run(KEPT_DELETIONS);
  }
}
