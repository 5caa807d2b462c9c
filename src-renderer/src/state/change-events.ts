// The one place the renderer follows the core's change events. Each event says what changed,
// so it is applied to what this UI holds: new nodes go into the open tree, marks change in
// place, counts are worked out here. Applying an event twice changes nothing, so a change
// this UI made itself (and already applied from the call's answer) costs no round trip.
import { onEvent } from '../api/client';
import { countedNodes } from './change-counts';
import { forgetNode, rememberNode } from './node-records';
import { rerunSearch } from './search-actions';
import { refreshModel } from './simulation';
import { followImport, insertNode, refreshTrajectories, useStudio } from './store';
import { treeNodeOf, withChangedNode, withoutLeaf } from './tree-rows';

const set = useStudio.setState;
const get = useStudio.getState;

let listening = false;

/** Subscribes once; returns nothing to undo because it lasts as long as the page. */
export function followChanges(): void {
  if (listening) return;
  listening = true;
  onEvent('nodes.added', ({ nodes }) => {
    // Each event arrives once, so counting here counts each node once, whoever made it.
    set(countedNodes(get().workspace, get().trajectories, nodes, 1));
    for (const node of nodes) insertNode(node, false);
  });
  onEvent('nodes.removed', ({ trajectoryId, nodes }) => {
    set(countedNodes(get().workspace, get().trajectories, nodes, -1));
    for (const node of nodes) forgetNode(node.id);
    const tree = get().tree;
    if (get().trajectory?.id !== trajectoryId || !tree || !nodes.some((n) => tree.byId.has(n.id))) return;
    let next = tree;
    for (const node of nodes) next = withoutLeaf(next, node.id);
    const selected = get().selectedNodeId;
    set({ tree: next, selectedNodeId: selected && next.byId.has(selected) ? selected : (nodes[0]!.editedFromId ?? nodes[0]!.parentId) });
  });
  onEvent('nodes.marked', ({ trajectoryId, node }) => {
    rememberNode(node);
    const tree = get().tree;
    if (get().trajectory?.id === trajectoryId && tree?.byId.has(node.id)) set({ tree: withChangedNode(tree, treeNodeOf(node)) });
    void rerunSearch();
  });
  onEvent('trajectories.added', () => void refreshTrajectories());
  onEvent('trajectory.changed', ({ trajectory }) => {
    set({
      trajectories: get().trajectories.map((t) => (t.id === trajectory.id ? { ...t, ...trajectory } : t)),
      ...(get().trajectory?.id === trajectory.id ? { trajectory } : {}),
    });
  });
  onEvent('model.changed', () => void refreshModel());
  onEvent('job.progress', (p) => {
    if (p.kind === 'import' && !p.finished) followImport(p);
  });
}
