// Reads along one path of a tree instead of the whole tree: building a prompt needs only the
// states from the root to one node, so its cost follows the path's depth, not the workspace's
// size (the nodes_by_parent index and the primary key serve every query here).
import type Database from 'better-sqlite3';
import type { NodeRecord } from '../common/trajectory/model';
import { toNode, type NodeRow } from './rows';

export class NodePaths {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      // Walks parent links up from the node; depth orders the path root first.
      path: db.prepare(
        `WITH RECURSIVE up(id) AS (
           SELECT id FROM nodes WHERE id = ?
           UNION ALL
           SELECT n.parent_id FROM nodes n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL
         )
         SELECT nodes.* FROM up JOIN nodes ON nodes.id = up.id ORDER BY nodes.depth`,
      ),
      firstImportedChild: db.prepare(
        `SELECT * FROM nodes WHERE parent_id = ?
           AND (json_extract(provenance, '$.source.rawAction') <> '' OR json_type(provenance, '$.gui') = 'object')
         ORDER BY rowid LIMIT 1`,
      ),
    };
  }

  /** The nodes from the trajectory's root to `nodeId`, root first; empty when there is no such node. */
  pathTo(nodeId: string): NodeRecord[] {
    return (this.stmt.path.all(nodeId) as NodeRow[]).map(toNode);
  }

  /** The first child of `nodeId` imported with its prompt: a non-empty raw prompt or the GUI blocks it was written with. */
  firstImportedChild(nodeId: string): NodeRecord | undefined {
    const row = this.stmt.firstImportedChild.get(nodeId) as NodeRow | undefined;
    return row && toNode(row);
  }
}
