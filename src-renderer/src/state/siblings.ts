// The sibling slice: how much the samples of each action agree in the open trajectory (for
// badges on parent rows, labels on sample rows, and the "where is the model unsure" list),
// and the samples of one state side by side, with the curator's preferred pick.
import { call } from '../api/client';
import { notify, revealNode, useUiStore } from './workspace-actions';
import { areaHook } from './ui-store';

export const useSiblings = areaHook('siblings');
const get = () => useSiblings.getState();
const set = useSiblings.setState;

let refreshSeq = 0;

/** Reads the agreement of every state of a trajectory with two or more samples of an action. */
export async function refreshAgreement(trajectoryId: string | null): Promise<void> {
  const seq = ++refreshSeq;
  if (!trajectoryId) {
    set({ trajectoryId: null, rows: [], byParent: new Map(), labels: new Map() });
    return;
  }
  try {
    const { rows, labels } = await call('siblings.agreement', { trajectoryId });
    // An older answer arriving late must not replace a newer one.
    if (seq !== refreshSeq) return;
    set({ trajectoryId, rows, byParent: new Map(rows.map((r) => [r.parentId, r])), labels: new Map(labels.map((v) => [v.nodeId, v])) });
  } catch {
    // The trajectory may have gone (closed, removed) while this was asked; the next change asks again.
    if (seq === refreshSeq) set({ trajectoryId, rows: [], byParent: new Map(), labels: new Map() });
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Keeps the agreement in step with the open tree: nodes added or removed, or another
 * trajectory opened, ask again once things are quiet for a moment.
 * Returns the function that stops following.
 */
export function followTreeForAgreement(): () => void {
  const schedule = (trajectoryId: string | null) => {
    clearTimeout(timer);
    timer = setTimeout(() => void refreshAgreement(trajectoryId), 250);
  };
  schedule(useUiStore.getState().trajectory?.id ?? null);
  const stop = useUiStore.subscribe((now, before) => {
    // Marks leave the shape as it was: only nodes added or removed change what agrees.
    if (now.tree?.shape !== before.tree?.shape || now.trajectory?.id !== before.trajectory?.id) schedule(now.trajectory?.id ?? null);
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}

/** Opens the samples under `parentId`. */
export async function openSiblings(parentId: string): Promise<void> {
  try {
    const { actions } = await call('siblings.sideBySide', { parentId });
    if (actions.length === 0) {
      notify('info', 'No samples to show side by side', ['This step has no samples of one action beside each other or beside a real step. Simulate it with more than one sample first.']);
      return;
    }
    set({ parentId, actions, listOpen: false });
  } catch (err) {
    notify('error', 'Could not show the samples side by side', [(err as Error).message]);
  }
}

export function closeSiblings(): void {
  set({ parentId: null, actions: [] });
}

/** Marks a sample preferred among the samples of its action (tag "preferred"); the view shows it at once. */
export async function preferSample(nodeId: string): Promise<void> {
  try {
    await call('siblings.prefer', { nodeId });
    const { parentId } = get();
    if (parentId) {
      const { actions } = await call('siblings.sideBySide', { parentId });
      if (get().parentId === parentId) set({ actions });
    }
  } catch (err) {
    notify('error', 'Could not mark the preferred sample', [(err as Error).message]);
  }
}

export function setAgreementList(patch: { listOpen?: boolean; maxAgreement?: number }): void {
  set(patch);
  // Opening the list reads the picks made since (marks do not refresh the agreement).
  if (patch.listOpen) void refreshAgreement(get().trajectoryId);
}

/** Goes to a state from the list: selects it and opens its samples side by side. */
export async function visitUnsureState(parentId: string): Promise<void> {
  revealNode(parentId);
  await openSiblings(parentId);
}
