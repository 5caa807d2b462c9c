// The workspace slice's actions. The renderer's one store (./studio.ts) is changed only by
// user intents (the actions in each area's file) and by events from the core (./change-events.ts).
// Views read from it and call these actions; they never call the door themselves.
import type { ImportReport } from '../../../src-main/common/contract/api';
import type { Domain, NodeRecord } from '../../../src-main/common/trajectory/model';
import { UPLOAD_CHUNK_BYTES } from '../../../src-main/common/contract/workspace';
import { call } from '../api/client';
import { lastMessageArrivedAt } from '../api/door';
import { forgetNodes, refreshNodes, rememberNode } from './node-records';
import { indexOutline, revealed, treeNodeOf, withAddedNode } from './tree-rows';
import { EMPTY_HISTORY } from './undo-history';
import { recordImportedTrajectories } from './cleanup-actions';
import { importReportNotice } from './import-report';
import { initialWorkspace, type Notice } from './slices/workspace';
import { useStudio } from './studio';
import { rememberOpenLocation, requestedOpenLocation } from './open-location';

export { NO_FILTERS, type ImportJob, type InspectorView, type Notice, type SearchFilters } from './slices/workspace';
export { useStudio };

const set = useStudio.setState;
const get = useStudio.getState;
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
  if (trajectory) rememberOpenLocation({ trajectoryId: trajectory.id, nodeId: id });
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

/** Puts a node the core just wrote into the open tree, without refetching the trajectory. */
export function insertNode(node: NodeRecord, select = true): void {
  rememberNode(node);
  const { tree, trajectory } = get();
  if (!tree || trajectory?.id !== node.trajectoryId) return;
  // Already there when its change event came first: then only the selection is this call's to make.
  if (!tree.byId.has(node.id)) {
    const next = withAddedNode(tree, treeNodeOf(node));
    set({ tree: next, collapsed: revealed(next, get().collapsed, node.id) });
  }
  if (select) revealNode(node.id);
}

/**
 * Shows nodes a call of this UI just wrote: put into the open tree (their change event may
 * already have put them there) with the first selected, or their trajectory opened.
 */
export async function showNewNodes(nodes: readonly NodeRecord[], trajectoryId = nodes[0]?.trajectoryId): Promise<void> {
  if (!trajectoryId) return;
  if (get().trajectory?.id === trajectoryId && get().tree) nodes.forEach((node, i) => insertNode(node, i === 0));
  else await selectTrajectory(trajectoryId, nodes[0]?.id, nodes);
}

export async function addManualStep(parentId: string, action: string, observation: string): Promise<NodeRecord | undefined> {
  return attempt('Adding the step', async () => {
    const node = await call('node.addManual', { parentId, action, observation });
    insertNode(node);
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

function reportImport(reports: ImportReport[]): void {
  const imported = reports.flatMap((r) => r.trajectoryIds);
  // A report names at most 1,000 trajectories: an import beyond that cannot be taken back whole with Ctrl+Z.
  if (reports.every((r) => r.trajectoryIds.length === r.imported)) {
    recordImportedTrajectories(`import of ${imported.length} trajector${imported.length === 1 ? 'y' : 'ies'}`, imported);
  } else {
    notify('info', 'This import is too large to take back with Ctrl+Z', ['Delete its trajectories from the list instead.']);
  }
  for (const r of reports) {
    const { kind, title, lines } = importReportNotice(r);
    notify(kind, title, lines);
  }
}

/** A slice of a file as base64, read by the browser without decoding the bytes as text. */
function base64Slice(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(blob);
  });
}

/**
 * Sends a dropped file to the core in chunks and imports it there: the page never holds the
 * whole file, and the core reads its bytes exactly as `worldloom import` reads a file.
 */
async function uploadAndImport(file: File, jobId: string): Promise<ImportReport> {
  const { uploadId } = await call('import.begin', { name: file.name, format: 'auto', size: file.size });
  try {
    for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK_BYTES) {
      if (get().importJob?.cancelling) throw new Error(`The upload of ${file.name} was cancelled; nothing of it was kept.`);
      followImport({ label: `Uploading ${file.name}`, done: offset, total: file.size });
      const data = await base64Slice(file.slice(offset, offset + UPLOAD_CHUNK_BYTES));
      await call('import.chunk', { uploadId, offset, data });
    }
  } catch (err) {
    await call('import.abort', { uploadId }).catch(() => undefined);
    throw err;
  }
  followImport({ label: `Importing ${file.name}`, done: 0, total: null });
  return call('import.finish', { uploadId, jobId });
}

/** Updates the import this UI follows (its own job.progress events arrive here too). */
export function followImport(progress: { jobId?: string; label: string; done: number; total: number | null }): void {
  const job = get().importJob;
  if (job && (!progress.jobId || progress.jobId === job.jobId)) set({ importJob: { ...job, label: progress.label, done: progress.done, total: progress.total } });
}

/** Imports as one job this UI follows; the new trajectories arrive as a trajectories.added event. */
async function importJob(work: (jobId: string) => Promise<ImportReport[]>): Promise<void> {
  const jobId = `import-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  set({ importJob: { jobId, label: 'Importing', done: 0, total: null, cancelling: false } });
  try {
    await attempt('Importing', async () => reportImport(await work(jobId)));
  } finally {
    set({ importJob: null });
  }
}

export async function importFiles(files: File[]): Promise<void> {
  await importJob(async (jobId) => {
    const reports: ImportReport[] = [];
    for (const file of files) reports.push(await uploadAndImport(file, jobId));
    return reports;
  });
}

export async function importPaths(paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  await importJob((jobId) => call('import.files', { paths, format: 'auto', jobId }));
}

/** Stops the import: an upload stops sending, and whatever the core had imported is taken back. */
export async function cancelImport(): Promise<void> {
  const job = get().importJob;
  if (!job || job.cancelling) return;
  set({ importJob: { ...job, cancelling: true, label: 'Cancelling the import' } });
  await call('job.cancel', { jobId: job.jobId });
}
