// User intents that change the workspace from the inspector: marks (star, rating, tags,
// note) and edits of a node's state, each recorded so Ctrl+Z takes it back. The core writes
// every change at once; the tree here is patched in place instead of refetched.
import type { Curation, NodeRecord } from '../../../src-main/common/trajectory/model';
import { call } from '../api/client';
import { inTurn } from './change-queue';
import { rerunSearch } from './search-actions';
import { attempt, notify, selectNewNode, selectNode, selectTrajectory, useUiStore } from './workspace-actions';
import { currentNodeRecord, forgetNode, rememberNode } from './node-records';
import { treeNodeOf, withChangedNode, withoutLeaf } from './tree-rows';
import { recorded, takeRedo, takeUndo, type UndoEntry } from './undo-history';

const set = useUiStore.setState;
const get = useUiStore.getState;

function record(entry: UndoEntry): void {
  set({ history: recorded(get().history, entry) });
}

/** Shows the node where the change happened: opens its trajectory if another one is open. */
async function show(node: NodeRecord, apply: () => void): Promise<void> {
  if (get().trajectory?.id === node.trajectoryId && get().tree) {
    apply();
    selectNode(node.id);
  } else {
    await selectTrajectory(node.trajectoryId, node.id);
  }
}

async function writeCuration(id: string, curation: Partial<Curation>): Promise<NodeRecord> {
  const node = await call('node.setCuration', { id, curation });
  rememberNode(node);
  await show(node, () => set({ tree: withChangedNode(get().tree!, treeNodeOf(node)) }));
  void rerunSearch();
  return node;
}

function describe(patch: Partial<Curation>): string {
  if (patch.starred !== undefined) return patch.starred ? 'star' : 'unstar';
  if (patch.rating !== undefined) return patch.rating ? `rating ${patch.rating}` : 'clear rating';
  if (patch.tags !== undefined) return 'tags';
  return 'note';
}

/** Changes a node's marks; undoable. */
export async function setCuration(id: string, patch: Partial<Curation>): Promise<void> {
  if (!get().tree?.byId.has(id)) return;
  await inTurn(() => attempt('Saving the marks', async () => {
    // The full marks (the tree's outline has no note), so undo puts back exactly what was there.
    // A node that cannot be fetched fails here, and the notice says why.
    const before = (await currentNodeRecord(id)).curation;
    const undoPatch = Object.fromEntries(Object.keys(patch).map((k) => [k, before[k as keyof Curation]])) as Partial<Curation>;
    await writeCuration(id, patch);
    record({
      label: describe(patch),
      undo: async () => void (await writeCuration(id, undoPatch)),
      redo: async () => void (await writeCuration(id, patch)),
    });
  }));
}

export async function toggleStar(id: string): Promise<void> {
  const node = get().tree?.byId.get(id);
  if (node) await setCuration(id, { starred: !node.starred });
}

export async function addTag(id: string, tag: string): Promise<void> {
  const node = get().tree?.byId.get(id);
  const clean = tag.trim().slice(0, 64);
  if (!node || !clean || node.tags.includes(clean)) return;
  await setCuration(id, { tags: [...node.tags, clean] });
}

export async function removeTag(id: string, tag: string): Promise<void> {
  const node = get().tree?.byId.get(id);
  if (node) await setCuration(id, { tags: node.tags.filter((t) => t !== tag) });
}

async function putBackEdit(id: string): Promise<void> {
  const node = await call('node.redoEdit', { id });
  await show(node, () => selectNewNode(node));
  set({ inspectorView: 'diff' });
}

async function takeBackEdit(edit: NodeRecord): Promise<void> {
  const node = await call('node.undoEdit', { id: edit.id });
  forgetNode(node.id);
  const original = node.editedFromId ?? node.parentId;
  if (get().trajectory?.id === node.trajectoryId && get().tree) {
    set({ tree: withoutLeaf(get().tree!, node.id), inspectorView: 'rendered', editingNodeId: null });
    selectNode(original);
  } else {
    await selectTrajectory(node.trajectoryId, original ?? undefined);
  }
}

/** Saves an edited state as a new node beside the original, selects it and shows the diff. */
export async function saveEdit(originalId: string, action: string, observation: string): Promise<NodeRecord | undefined> {
  return inTurn(() => attempt('Saving the edit', async () => {
    const edit = await call('node.edit', { id: originalId, action, observation });
    selectNewNode(edit);
    set({ editingNodeId: null, inspectorView: 'diff' });
    record({ label: `edit of step ${edit.depth}`, undo: () => takeBackEdit(edit), redo: () => putBackEdit(edit.id) });
    void rerunSearch();
    return edit;
  }));
}

export function startEditing(id: string): void {
  const node = get().tree?.byId.get(id);
  if (!node) return;
  if (node.parentId === null) {
    notify('info', 'The initial state cannot be edited', ['It is where the trajectory starts. Edit a step instead, or start a new trajectory from the edited state.']);
    return;
  }
  set({ editingNodeId: id });
}

export function stopEditing(): void {
  set({ editingNodeId: null });
}

// A redo pressed as soon as the undo shows waits for that undo to finish (./change-queue.ts).
export function undo(): Promise<void> {
  return inTurn(undoNow);
}

export function redo(): Promise<void> {
  return inTurn(redoNow);
}

async function undoNow(): Promise<void> {
  const step = takeUndo(get().history);
  if (!step) return notify('info', 'Nothing to undo');
  set({ history: step.next });
  const done = await attempt(`Undoing the ${step.entry.label}`, async () => {
    await step.entry.undo();
    return true;
  });
  // A change that could not be taken back stays in the history where it was.
  if (!done) set({ history: { ...get().history, past: [...get().history.past, step.entry], future: get().history.future.slice(0, -1) } });
}

async function redoNow(): Promise<void> {
  const step = takeRedo(get().history);
  if (!step) return notify('info', 'Nothing to redo');
  set({ history: step.next });
  const done = await attempt(`Redoing the ${step.entry.label}`, async () => {
    await step.entry.redo();
    return true;
  });
  if (!done) set({ history: { ...get().history, past: get().history.past.slice(0, -1), future: [...get().history.future, step.entry] } });
}
