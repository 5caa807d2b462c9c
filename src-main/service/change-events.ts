// What other processes (the CLI, another window, a recorder) write to the open workspace,
// announced as the same change events this process's own changes send through the Studio's
// announce methods, so every UI applies it to what it already holds instead of reading the
// tree again: nodes added or removed, a node's marks, trajectories added or removed.
import { EMPTY_CURATION, type NodeRecord } from '../common/trajectory/model';
import type { ChangeEntry } from '../store/change-log';
import type { WorkspaceStore } from '../store/workspace-store';
import type { Studio } from './studio';

/** How often a studio looks whether another process wrote to its workspace (a cheap PRAGMA). */
export const WATCH_INTERVAL_MS = 400;
/** More entries than this at once (a large import elsewhere) and the UIs read the workspace again whole. */
const MOST_ENTRIES = 5000;

/**
 * Tells every UI what other processes (the CLI, another window, a recorder) wrote to the open
 * workspace, as the same change events this process's own changes send. Returns a stop function.
 */
export function watchOtherWriters(studio: Studio, store: WorkspaceStore, intervalMs = WATCH_INTERVAL_MS): () => void {
  store.pruneChangeLog();
  let cursor = store.changes.latest();
  const poll = () => {
    try {
      if (studio.workspace !== store || !store.changes.othersWrote()) return;
      const read = store.changes.since(cursor, MOST_ENTRIES);
      cursor = read.next;
      if (read.gap || read.more) {
        // Too much, or older than the log keeps: read everything again rather than piece it together.
        if (read.more) cursor = store.changes.latest();
        studio.emit('workspace.changed', { reason: 'changed-elsewhere' });
        return;
      }
      announceEntries(studio, store, read.entries);
    } catch (err) {
      // A closed or busy workspace is looked at again on the next tick; nothing else can go wrong here.
      if (!/not open|busy|SQLITE_BUSY/i.test(String((err as Error).message))) throw err;
    }
  };
  const timer = setInterval(poll, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Turns log entries into change events, reading what each changed thing is now. */
export function announceEntries(studio: Studio, store: WorkspaceStore, entries: readonly ChangeEntry[]): void {
  const trajectoriesTouched = new Set<string>();
  for (const e of entries) if (e.kind === 'trajectory-added' || e.kind === 'trajectory-removed') trajectoriesTouched.add(e.trajectoryId);
  const added: string[] = [];
  const removed: string[] = [];
  for (const id of trajectoriesTouched) (store.getTrajectory(id) ? added : removed).push(id);
  if (removed.length) studio.emit('trajectories.removed', { reason: 'elsewhere', trajectoryIds: removed });
  studio.announceTrajectoriesAdded('elsewhere', added);

  const nodesAdded = new Map<string, NodeRecord[]>();
  const nodesRemoved = new Map<string, NodeRecord[]>();
  const seen = new Set<string>();
  const addedHere = new Set(entries.filter((e) => e.kind === 'node-added').map((e) => e.nodeId));
  // The last entry of a node says how it ends up; earlier ones are history.
  for (const e of [...entries].reverse()) {
    if (trajectoriesTouched.has(e.trajectoryId)) continue;
    if (e.kind === 'trajectory-changed') {
      if (seen.has(`t:${e.trajectoryId}`)) continue;
      seen.add(`t:${e.trajectoryId}`);
      const trajectory = store.getTrajectory(e.trajectoryId);
      if (trajectory) studio.emit('trajectory.changed', { reason: 'elsewhere', trajectory });
      continue;
    }
    if (!e.nodeId || seen.has(e.nodeId)) continue;
    seen.add(e.nodeId);
    const now = store.getNode(e.nodeId);
    if (e.kind === 'node-removed' || !now) {
      // Gone again before any UI heard of it, or back already: nothing to tell.
      if (now || addedHere.has(e.nodeId)) continue;
      const was = store.deletedNode(e.nodeId) ?? removedShape(e);
      if (was) push(nodesRemoved, e.trajectoryId, was);
    } else if (addedHere.has(e.nodeId)) {
      push(nodesAdded, e.trajectoryId, now);
    } else {
      studio.emit('nodes.marked', { trajectoryId: e.trajectoryId, node: now });
    }
  }
  for (const [trajectoryId, nodes] of nodesRemoved) studio.emit('nodes.removed', { reason: 'elsewhere', trajectoryId, nodes: sortByDepth(nodes) });
  for (const nodes of nodesAdded.values()) studio.announceNodesAdded('elsewhere', sortByDepth(nodes));
}

function push(map: Map<string, NodeRecord[]>, key: string, node: NodeRecord): void {
  const list = map.get(key);
  if (list) list.push(node);
  else map.set(key, [node]);
}

/** Parents before children, as every node list of an event comes. */
function sortByDepth(nodes: NodeRecord[]): NodeRecord[] {
  return nodes.sort((a, b) => a.depth - b.depth);
}

/** A removed node no deletion kept (an undone edit elsewhere): what the log says of it. */
function removedShape(e: ChangeEntry): NodeRecord | null {
  if (!e.removed || !e.nodeId) return null;
  const r = JSON.parse(e.removed) as { parentId: string | null; editedFromId: string | null; depth: number; origin: NodeRecord['origin']; createdAt: string };
  return {
    id: e.nodeId,
    trajectoryId: e.trajectoryId,
    parentId: r.parentId,
    editedFromId: r.editedFromId,
    depth: r.depth,
    action: '',
    observation: '',
    reasoning: null,
    origin: r.origin,
    provenance: {},
    curation: EMPTY_CURATION,
    metrics: null,
    createdAt: r.createdAt,
  };
}
