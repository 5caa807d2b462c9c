// User intents that clean up a workspace: delete nodes and trajectories, rename a trajectory,
// change its environment description. Each is recorded so Ctrl+Z takes it back, and so are the
// nodes a simulation or perturbation added and the trajectories an import brought in: undoing
// them deletes them (kept in the workspace), redoing restores exactly what was there. Deletions
// are kept in the workspace file, so after a reload Ctrl+Z can still take back the latest ones.
// The tree follows through the change events the core sends (./change-events.ts).
import type { DeletionSummary, TrajectoryVersion } from '../../../src-main/common/contract/curation';
import type { NodeRecord, WorldSpec } from '../../../src-main/common/trajectory/model';
import { ApiCallError, call } from '../api/client';
import { inTurn } from './change-queue';
import { attempt, dismissNotice, notify, selectTrajectory } from './workspace-actions';
import { plural } from '../../../src-main/common/plural';
import { useUiStore } from './ui-store';
import { recorded, type UndoEntry } from './undo-history';

const set = useUiStore.setState;
const get = useUiStore.getState;

/** How many of the workspace's kept deletions Ctrl+Z can reach after a reload. */
const DELETIONS_TO_UNDO_AFTER_RELOAD = 20;

function record(entry: UndoEntry): void {
  set({ history: recorded(get().history, entry) });
}

/**
 * Something that can be deleted and put back again as often as the user goes back and forth:
 * each delete makes a new deletion, each restore takes the latest one back.
 */
function deletable(what: { nodes: string[] } | { trajectories: string[] }, deletionId: string | null) {
  let latest = deletionId;
  const remove = async () => {
    const answer = 'nodes' in what ? await call('node.delete', { ids: what.nodes }) : await call('trajectory.delete', { ids: what.trajectories });
    latest = answer.deletion.id;
  };
  const restore = async () => {
    if (!latest) throw new Error('There is nothing kept to put back.');
    try {
      const { trajectories } = await call('deletion.restore', { id: latest });
      // A trajectory brought back opens again where nothing else is open.
      if (trajectories[0] && !get().trajectory) await selectTrajectory(trajectories[0].id);
    } catch (err) {
      // Put back already (another window, or before a reload): the history moves past it instead of sticking there.
      if (!(err instanceof ApiCallError && err.code === 'not-found')) throw err;
      notify('info', 'That deletion was already taken back', [err.message]);
    }
    latest = null;
  };
  return { remove, restore };
}

/** Deletes a node with everything below it and the edits made of it; the initial state deletes its trajectory. */
/** How many nodes go with `id`: the node and everything below it in the open tree. */
export function subtreeSize(id: string): number {
  const children = get().tree?.shape.children;
  let count = 0;
  for (const stack = [id]; stack.length > 0; count++) stack.push(...(children?.get(stack.pop()!) ?? []));
  return count;
}

/**
 * Deletes a node and what follows it. A subtree of more than one node is deleted only once the
 * user confirms it (a dialog names how many nodes go); a single step goes at once, as undo brings it back.
 */
export async function deleteNode(id: string, confirmed = false): Promise<void> {
  const node = get().tree?.byId.get(id);
  if (!node) return;
  const trajectoryId = get().trajectory?.id;
  const nodes = subtreeSize(id);
  if (!confirmed && nodes > 1) {
    set({ confirmingDeletion: { nodeId: id, nodes, action: node.parentId === null ? (get().trajectory?.title ?? 'the trajectory') : node.label } });
    return;
  }
  if (node.parentId === null) return trajectoryId ? deleteTrajectory(trajectoryId) : undefined;
  await inTurn(() => attempt('Deleting', async () => {
    const { deletion } = await call('node.delete', { ids: [id] });
    const kept = deletable({ nodes: [id] }, deletion.id);
    const notice = notifyDeleted(`Deleted ${deletion.label}${deletion.nodes > 1 ? ` (${plural(deletion.nodes, 'node')})` : ''}`);
    record({ label: `delete of ${deletion.label}`, undo: withNoticeGone(notice, kept.restore), redo: kept.remove });
  }));
}

/**
 * Asks before the trajectory list deletes a whole trajectory, as a subtree's deletion asks:
 * the dialog names it and its steps, and only its Delete button goes ahead.
 */
export function askToDeleteTrajectory(trajectory: { id: string; title: string; steps: number }): void {
  const root = get().trajectory?.id === trajectory.id ? get().tree?.shape.roots[0] : undefined;
  set({ confirmingDeletion: { trajectoryId: trajectory.id, nodeId: root ?? '', nodes: root ? subtreeSize(root) : trajectory.steps + 1, action: trajectory.title } });
}

export async function deleteTrajectory(id: string): Promise<void> {
  await inTurn(() => attempt('Deleting the trajectory', async () => {
    const { deletion } = await call('trajectory.delete', { ids: [id] });
    const kept = deletable({ trajectories: [id] }, deletion.id);
    const notice = notifyDeleted(`Deleted ${deletion.label} (${plural(deletion.nodes, 'node')})`);
    record({ label: `delete of ${deletion.label}`, undo: withNoticeGone(notice, kept.restore), redo: kept.remove });
  }));
}

/** Says what was deleted and how to get it back; the notice's id, so undoing removes it. */
function notifyDeleted(title: string): number | undefined {
  notify('info', title, ['Ctrl+Z brings it back, even after the workspace is reopened.']);
  return get().notices.at(-1)?.id;
}

/** An undo that also takes away the notice of what it undoes: once back, "Deleted …" is no longer true. */
function withNoticeGone(notice: number | undefined, undo: () => Promise<void>): () => Promise<void> {
  return async () => {
    await undo();
    if (notice !== undefined) dismissNotice(notice);
  };
}

/** Changes a trajectory's title or environment description; the old one stays as a version and undo puts it back. */
async function revise(id: string, change: { title?: string; systemPrompt?: string; worldSpec?: WorldSpec | null }, label: string, busy: string): Promise<boolean> {
  const done = await inTurn(() => attempt(busy, async () => {
    const { keptVersion } = await call('trajectory.revise', { id, ...change });
    if (keptVersion === null) return true;
    // Undo brings back the version kept just now; redo brings back what undo replaced, kept as the next version.
    let back = keptVersion;
    record({
      label,
      undo: async () => {
        const answer = await call('trajectory.restoreVersion', { id, version: back });
        back = answer.keptVersion ?? back;
      },
      redo: async () => {
        const answer = await call('trajectory.restoreVersion', { id, version: back });
        back = answer.keptVersion ?? back;
      },
    });
    return true;
  }));
  return done === true;
}

export function renameTrajectory(id: string, title: string): Promise<boolean> {
  const clean = title.trim();
  if (!clean) {
    notify('error', 'A trajectory needs a title', ['Type one, or press Esc to keep the old one.']);
    return Promise.resolve(false);
  }
  return revise(id, { title: clean }, 'rename', 'Renaming');
}

export function reviseDescription(id: string, systemPrompt: string): Promise<boolean> {
  return revise(id, { systemPrompt }, 'description change', 'Saving the description');
}

/** Sets or removes a trajectory's world specification; the old one stays as a version and undo puts it back. */
export function reviseWorldSpec(id: string, worldSpec: WorldSpec | null): Promise<boolean> {
  return revise(id, { worldSpec }, 'world specification change', 'Saving the world specification');
}

/** A trajectory's earlier titles, descriptions and world specifications, newest first; empty (with a notice) when they cannot be read. */
export async function readVersions(id: string): Promise<TrajectoryVersion[]> {
  try {
    return await call('trajectory.versions', { id });
  } catch (err) {
    notify('error', 'Could not read the earlier versions', [(err as Error).message]);
    return [];
  }
}

/** Puts an earlier description back (the current one is kept as a version in turn). */
export async function restoreVersion(id: string, version: number): Promise<void> {
  await inTurn(() => attempt('Restoring the earlier version', async () => {
    const { keptVersion } = await call('trajectory.restoreVersion', { id, version });
    if (keptVersion === null) return;
    let back = keptVersion;
    const swap = async () => {
      const answer = await call('trajectory.restoreVersion', { id, version: back });
      back = answer.keptVersion ?? back;
    };
    record({ label: 'restore of an earlier version', undo: swap, redo: swap });
  }));
}

/** New nodes the user made (simulated, perturbed samples): undo deletes them, redo brings them back. */
export function recordAddedNodes(label: string, nodes: readonly NodeRecord[]): void {
  if (nodes.length === 0) return;
  // Only the top ones: anything under them goes with them.
  const ids = new Set(nodes.map((n) => n.id));
  const tops = nodes.filter((n) => !n.parentId || !ids.has(n.parentId)).map((n) => n.id);
  const kept = deletable({ nodes: tops }, null);
  record({ label, undo: kept.remove, redo: kept.restore });
}

/** Trajectories an import brought in: undo deletes them, redo brings them back. */
export function recordImportedTrajectories(label: string, trajectoryIds: readonly string[]): void {
  if (trajectoryIds.length === 0) return;
  const kept = deletable({ trajectories: [...trajectoryIds] }, null);
  record({ label, undo: kept.remove, redo: kept.restore });
}

/** Undo entries for the workspace's newest kept deletions, oldest first: what Ctrl+Z reaches after a reload. */
export function deletionEntries(deletions: readonly DeletionSummary[]): UndoEntry[] {
  return [...deletions].reverse().map((d) => {
    const kept = deletable(d.kind === 'nodes' ? { nodes: d.roots } : { trajectories: d.roots }, d.id);
    return { label: `delete of ${d.label}`, undo: kept.restore, redo: kept.remove };
  });
}

let listening = false;
/** On every workspace opened, the history starts with its kept deletions, so a reload loses no undo of a delete. */
export function listenForKeptDeletions(): void {
  if (listening) return;
  listening = true;
  useUiStore.subscribe((now, before) => {
    const path = now.workspace?.path;
    if (!path || path === before.workspace?.path) return;
    void call('deletion.list', { limit: DELETIONS_TO_UNDO_AFTER_RELOAD })
      .then((deletions) => {
        if (get().workspace?.path !== path || deletions.length === 0) return;
        const { past, future } = get().history;
        set({ history: { past: [...deletionEntries(deletions), ...past], future } });
      })
      .catch((err: Error) => notify('error', 'Could not read what was deleted in this workspace', [err.message]));
  });
}
