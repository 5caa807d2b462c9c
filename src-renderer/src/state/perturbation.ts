// The perturbation slice: the catalog for the current domain, perturbation jobs, and the
// workspace's own perturbation file as it is being edited.
import type { Domain, WorldSpec } from '../../../src-main/common/trajectory/model';
import { call } from '../api/client';
import { notify, showNewNodes } from './workspace-actions';
import { recordAddedNodes, reviseWorldSpec } from './cleanup-actions';
import { areaHook } from './ui-store';
import { plural } from '../../../src-main/common/plural';

export type { UserFileDraft, UserFileReport } from './slices/perturbation';

export const usePerturbation = areaHook('perturbation');
const set = usePerturbation.setState;
const get = usePerturbation.getState;

export async function loadCatalog(domain: Domain, force = false): Promise<void> {
  if (!force && usePerturbation.getState().domain === domain) return;
  try {
    set({ domain, kinds: await call('perturb.catalog', { domain }) });
  } catch (err) {
    notify('error', 'Could not load the perturbation catalog', [(err as Error).message]);
  }
}

export async function perturb(
  nodeId: string,
  mode: 'instruction' | 'transform',
  kinds: { kindId: string; params?: Record<string, unknown> }[],
  seed: number,
): Promise<void> {
  set({ running: true });
  try {
    const result = await call('perturb.run', { jobId: `perturb-${Date.now()}`, nodeId, mode, kinds, seed });
    notify('info', `${plural(result.nodes.length, 'perturbed sibling')} added`);
    // Instruction-mode samples cut off before their observation are not stored: say which and why.
    if (result.incomplete.length > 0) {
      notify('error', `${plural(result.incomplete.length, 'perturbed sample')} not stored`, [
        ...result.incomplete.map((s) => s.message),
        'Raise Max tokens in the simulate panel (remembered for this workspace) and run it again.',
      ]);
    }
    recordAddedNodes(`perturbation (${plural(result.nodes.length, 'sibling')})`, result.nodes);
    await showNewNodes(result.nodes);
  } catch (err) {
    notify('error', 'Perturbation failed', [(err as Error).message]);
  } finally {
    set({ running: false });
  }
}

export async function saveWorldSpec(trajectoryId: string, worldSpec: WorldSpec | null): Promise<void> {
  // The trajectory.changed event puts the new specification into the open trajectory; the old one is kept as a version (Ctrl+Z).
  if (await reviseWorldSpec(trajectoryId, worldSpec)) {
    notify('info', worldSpec ? 'World specification saved: every simulation in this trajectory follows it.' : 'World specification removed.');
  }
}

/** Reads the workspace's perturbation file for editing; a draft with unsaved changes is kept instead. */
export async function openUserFile(workspace: string): Promise<void> {
  const draft = get().userFile;
  if (draft?.workspace === workspace && draft.text !== draft.saved) return;
  try {
    const { text } = await call('perturb.userFile', {});
    // Typed meanwhile: the user's text wins over the file as read.
    if (get().userFile !== draft) return;
    set({ userFile: { workspace, text, saved: text, report: null } });
  } catch (err) {
    notify('error', 'Could not read the workspace perturbation file', [(err as Error).message, 'Close “Workspace perturbations” and open it again to retry.']);
  }
}

export function editUserFile(text: string): void {
  const draft = get().userFile;
  if (draft) set({ userFile: { ...draft, text } });
}

/** Saves the workspace's own perturbation kinds; an invalid file is refused with every problem listed. */
export async function saveUserFile(domain: Domain): Promise<void> {
  const draft = get().userFile;
  if (!draft) return;
  try {
    const report = await call('perturb.setUserFile', { text: draft.text });
    const now = get().userFile;
    if (now?.workspace === draft.workspace) set({ userFile: { ...now, saved: report.ok ? draft.text : now.saved, report } });
    if (report.ok) await loadCatalog(domain, true);
  } catch (err) {
    notify('error', 'Could not save the workspace perturbation file', [(err as Error).message, 'Your text is kept here: save again, or copy it somewhere safe first.']);
  }
}
