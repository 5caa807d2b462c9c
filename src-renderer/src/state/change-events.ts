// The renderer's one event router: every event of the core arrives here and is applied to
// the slice it concerns of the one UI store (./ui-store.ts). Change events say what changed, so
// they are applied to what this UI holds: new nodes go into the open tree, marks change in
// place, counts are worked out here. Applying an event twice changes nothing, so a change
// this UI made itself (and already applied from the call's answer) costs no round trip.
// Job progress goes to the view that follows that kind of job; streamed tokens to the
// simulate panel.
import { followEvaluationJob } from './evaluation';
import { onEvent } from '../api/client';
import { countedNodes } from './change-counts';
import { forgetNode, forgetNodes, rememberNode } from './node-records';
import { refreshTags, rerunSearch, withChangedTags } from './search-actions';
import { comparisonMayHaveChanged, followRealityJob } from './compare';
import { followExportJob } from './dataset';
import { receiveGpuInstallLine, receiveToken, refreshModel } from './simulation';
import { insertNode, notify, refreshTrajectories, selectTrajectory, useUiStore } from './workspace-actions';
import { followImport } from './import-actions';
import { treeNodeOf, withChangedNode, withoutLeaf } from './tree-rows';

const set = useUiStore.setState;
const get = useUiStore.getState;

let listening = false;

/** Subscribes once; nothing to undo, because it lasts as long as the page. */
export function followChanges(): void {
  if (listening) return;
  listening = true;
  onEvent('workspace.changed', ({ reason }) => {
    // A workspace opened or filled by another door is read again whole.
    if (reason === 'closed' || !get().workspace) return;
    void refreshTrajectories();
    const current = get().trajectory;
    if (current) void selectTrajectory(current.id);
  });
  onEvent('nodes.added', ({ trajectoryId, nodes }) => {
    // Each event arrives once, so counting here counts each node once, whoever made it.
    set(countedNodes(get().workspace, get().trajectories, nodes, 1));
    for (const node of nodes) insertNode(node);
    comparisonMayHaveChanged(trajectoryId);
  });
  onEvent('nodes.removed', ({ trajectoryId, nodes }) => {
    set(countedNodes(get().workspace, get().trajectories, nodes, -1));
    for (const node of nodes) forgetNode(node.id);
    const tree = get().tree;
    if (get().trajectory?.id !== trajectoryId || !tree || !nodes.some((n) => tree.byId.has(n.id))) return;
    let next = tree;
    // Children before parents, so each one leaves as a leaf (a deleted subtree comes parents first).
    for (const node of [...nodes].reverse()) next = withoutLeaf(next, node.id);
    const selected = get().selectedNodeId;
    set({ tree: next, selectedNodeId: selected && next.byId.has(selected) ? selected : (nodes[0]!.editedFromId ?? nodes[0]!.parentId) });
  });
  onEvent('nodes.marked', ({ trajectoryId, node }) => {
    rememberNode(node);
    const tree = get().tree;
    // A tag just added (or the last use of one just removed) shows in the tag filter at once, not after a reload.
    const before = get().trajectory?.id === trajectoryId ? tree?.byId.get(node.id)?.tags : undefined;
    if (before) set({ search: { ...get().search, tags: withChangedTags(get().search.tags, before, node.curation.tags) } });
    else void refreshTags().catch(() => undefined);
    if (get().trajectory?.id === trajectoryId && tree?.byId.has(node.id)) set({ tree: withChangedNode(tree, treeNodeOf(node)) });
    void rerunSearch();
  });
  onEvent('trajectories.added', () => void refreshTrajectories());
  onEvent('trajectories.removed', ({ reason, trajectoryIds }) => {
    void refreshTrajectories();
    const open = get().trajectory;
    if (!open || !trajectoryIds.includes(open.id)) return;
    if (reason === 'elsewhere') notify('info', `“${open.title}” was deleted by another process`, ['Its deletion is kept in the workspace: Undo there, or reopen the workspace and press Ctrl+Z, brings it back.']);
    forgetNodes();
    set({ trajectory: null, tree: null, selectedNodeId: null, editingNodeId: null });
  });
  onEvent('trajectory.changed', ({ trajectory }) => {
    set({
      trajectories: get().trajectories.map((t) => (t.id === trajectory.id ? { ...t, ...trajectory } : t)),
      ...(get().trajectory?.id === trajectory.id ? { trajectory } : {}),
    });
  });
  onEvent('model.changed', () => void refreshModel());
  onEvent('simulate.token', receiveToken);
  onEvent('job.progress', (p) => {
    if (p.kind === 'import' && !p.finished) followImport(p);
    else if (p.kind === 'export') followExportJob(p);
    else if (p.kind === 'record' || p.kind === 'replay' || p.kind === 'run-real') followRealityJob(p);
    else if (p.kind === 'gpu-install' && !p.finished) receiveGpuInstallLine(p.label);
    else if (p.kind === 'evaluation') followEvaluationJob(p);
  });
}
