// The workspace slice's actions. The renderer's one UI store (./ui-store.ts) is changed only by
// user intents (the actions in each area's file) and by events from the core (./change-events.ts).
// Views read from it and call these actions; they never call the door themselves.
import type { Domain, NodeRecord } from '../../../src-main/common/trajectory/model';
import { call } from '../api/client';
import { lastMessageArrivedAt } from '../api/door';
import { forgetNodes, refreshNodes, rememberNode } from './node-records';
import { indexOutline, revealed, treeNodeOf, withAddedNode } from './tree-rows';
import { EMPTY_HISTORY } from './undo-history';
import { initialWorkspace, type Notice } from './slices/workspace';
import { useUiStore } from './ui-store';
import { rememberOpenLocation, rememberSelectedLocation, requestedOpenLocation } from './open-location';

export { NO_FILTERS, type ImportJob, type InspectorView, type Notice, type SearchFilters } from './slices/workspace';
export { useUiStore };

const set = useUiStore.setState;
const get = useUiStore.getState;
let noticeId = 1;

export function notify(kind: Notice['kind'], title: string, lines: string[] = []): void {
  set({ notices: [...get().notices, { id: noticeId++, kind, title, lines }] });
}

export function dismissNotice(id: number): void {
  set({ notices: get().notices.filter((n) => n.id !== id) });
}

/** Runs a user intent, showing a busy label while it runs and any error as a notice. */
export async function attempt<T>(label: string, work: () => Promise<T>): Promise<T | undefined> {
  set({ busy: label });
  try {
    return await work();
  } catch (err) {
    notify('error', `${label} failed`, [(err as Error).message]);
    return undefined;
  } finally {
    set({ busy: null });
  }
}

/** Learns what the main process already has open; false when it could not be reached (a notice says why). */
export async function loadApp(): Promise<boolean> {
  const loaded = await attempt('Connecting', async () => {
    const app = await call('app.info', {});
    set({ app, workspace: app.workspace });
    if (app.workspace) {
      await refreshTrajectories();
      // A reload reopens what was open (the address names it), when this workspace still holds it.
      const wanted = requestedOpenLocation();
      if (wanted && get().trajectories.some((t) => t.id === wanted.trajectoryId)) await selectTrajectory(wanted.trajectoryId, wanted.nodeId ?? undefined);
    }
    return true;
  });
  return loaded === true;
}

export async function refreshTrajectories(): Promise<void> {
  const [workspace, trajectories] = await Promise.all([call('workspace.info', {}), call('trajectory.list', {})]);
  set({ workspace, trajectories });
}

/** Asks the desktop app's dialog for a workspace file and opens it; nothing when the user cancels. */
export async function pickAndOpenWorkspace(mode: 'open' | 'create'): Promise<void> {
  const { path } = await call('dialog.pickWorkspace', { mode });
  if (path) await openWorkspace(path, mode);
}

export async function openWorkspace(path: string, mode: 'open' | 'create'): Promise<void> {
  await attempt(mode === 'create' ? 'Creating the workspace' : 'Opening the workspace', async () => {
    const workspace = await call(mode === 'create' ? 'workspace.create' : 'workspace.open', { path });
    forgetNodes();
    rememberOpenLocation(null);
    set({ workspace, trajectory: null, tree: null, selectedNodeId: null, history: EMPTY_HISTORY, editingNodeId: null });
    await refreshTrajectories();
  });
}

export async function openDemoWorkspace(): Promise<void> {
  await attempt('Opening the demo workspace', async () => {
    const workspace = await call('workspace.openDemo', {});
    forgetNodes();
    rememberOpenLocation(null);
    set({ workspace, trajectory: null, tree: null, selectedNodeId: null, history: EMPTY_HISTORY, editingNodeId: null });
    await refreshTrajectories();
  });
}

export async function closeWorkspace(): Promise<void> {
  await attempt('Closing the workspace', async () => {
    await call('workspace.close', {});
    forgetNodes();
    rememberOpenLocation(null);
    set({ ...initialWorkspace, app: await call('app.info', {}), notices: get().notices, layout: get().layout });
  });
}

/**
 * Opens a trajectory, or reloads the open one after a change. `known` are full records the
 * caller just got from the core (new samples, perturbed siblings), kept so they are not fetched again.
 */
export async function selectTrajectory(id: string, nodeId?: string, known: readonly NodeRecord[] = []): Promise<void> {
  await attempt('Opening the trajectory', async () => {
    // The outline only: full records come per node, for the one the inspector shows.
    const outline = await call('trajectory.outline', { id });
    // For the tree benchmark: when the data arrived, before it was parsed and indexed.
    performance.mark('worldloom:tree-data', { startTime: lastMessageArrivedAt() });
    const tree = indexOutline(outline);
    const same = get().trajectory?.id === id;
    // A reload of the open one is often another window's or the CLI's change: its kept records
    // may be stale, but they stay shown (with whatever is typed in the inspector) while they are
    // fetched again. Another trajectory's are of no use.
    if (same) refreshNodes((kept) => tree.byId.has(kept));
    else forgetNodes();
    for (const node of known) rememberNode(node);
    const keep = nodeId ?? (same ? get().selectedNodeId : null);
    const selectedNodeId = keep && tree.byId.has(keep) ? keep : (tree.shape.roots[0] ?? null);
    const collapsed = same ? get().collapsed : new Set<string>();
    set({
      trajectory: outline.trajectory,
      tree,
      collapsed: selectedNodeId ? revealed(tree, collapsed, selectedNodeId) : collapsed,
      selectedNodeId,
      editingNodeId: same ? get().editingNodeId : null,
      // An action typed for one trajectory (a shell command) means nothing in another (an MCP tool call).
      ...(same ? {} : { simulation: { ...get().simulation, draft: { ...get().simulation.draft, action: '' } } }),
    });
    rememberOpenLocation({ trajectoryId: outline.trajectory.id, nodeId: selectedNodeId });
  });
}

export function selectNode(id: string | null): void {
  if (id === get().selectedNodeId) return;
  set({ selectedNodeId: id, inspectorView: get().inspectorView === 'raw' ? 'raw' : 'rendered' });
  const trajectory = get().trajectory;
  if (trajectory) rememberSelectedLocation({ trajectoryId: trajectory.id, nodeId: id });
}

/** Selects a node of the open trajectory and expands its ancestors so it shows. */
export function revealNode(id: string): void {
  const { tree, collapsed } = get();
  if (!tree?.byId.has(id)) return;
  set({ collapsed: revealed(tree, collapsed, id) });
  selectNode(id);
}

export function toggleCollapsed(id: string, collapse?: boolean): void {
  const next = new Set(get().collapsed);
  const shouldCollapse = collapse ?? !next.has(id);
  if (shouldCollapse === next.has(id)) return;
  if (shouldCollapse) next.add(id);
  else next.delete(id);
  set({ collapsed: next });
}

export function setCollapsed(collapsed: ReadonlySet<string>): void {
  set({ collapsed });
}

/**
 * Puts a node the core just wrote into the open tree, without refetching the trajectory, and
 * shows its ancestors open. Only the nodes.added event calls it (./change-events.ts): each new
 * node is inserted once, from its event, whichever door or agent made it.
 */
export function insertNode(node: NodeRecord): void {
  rememberNode(node);
  const { tree, trajectory } = get();
  if (!tree || trajectory?.id !== node.trajectoryId || tree.byId.has(node.id)) return;
  const next = withAddedNode(tree, treeNodeOf(node));
  set({ tree: next, collapsed: revealed(next, get().collapsed, node.id) });
}

/**
 * Selects a node a call of this UI just made. Its nodes.added event puts it into the tree (the
 * core sends the event before the reply); were the reply first, the event's insert shows it selected.
 */
export function selectNewNode(node: NodeRecord): void {
  rememberNode(node);
  if (get().trajectory?.id !== node.trajectoryId) return;
  if (get().tree?.byId.has(node.id)) revealNode(node.id);
  else selectNode(node.id);
}

/** Shows nodes a call of this UI just made: the first selected in the open tree, or their trajectory opened. */
export async function showNewNodes(nodes: readonly NodeRecord[], trajectoryId = nodes[0]?.trajectoryId): Promise<void> {
  if (!trajectoryId) return;
  if (get().trajectory?.id === trajectoryId && get().tree) {
    if (nodes[0]) selectNewNode(nodes[0]);
  } else await selectTrajectory(trajectoryId, nodes[0]?.id, nodes);
}

export async function addManualStep(parentId: string, action: string, observation: string): Promise<NodeRecord | undefined> {
  return attempt('Adding the step', async () => {
    const node = await call('node.addManual', { parentId, action, observation });
    selectNewNode(node);
    return node;
  });
}

/** True when created; on failure the error is shown and the form keeps what the user typed. */
export async function createTrajectory(input: { title: string; domain: Domain; systemPrompt: string; initialState: string }): Promise<boolean> {
  const created = await attempt('Creating the trajectory', async () => {
    const bundle = await call('trajectory.create', input);
    await refreshTrajectories();
    await selectTrajectory(bundle.trajectory.id);
    return true;
  });
  return created === true;
}
