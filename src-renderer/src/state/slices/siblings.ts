// The sibling slice's state: agreement among samples of one action for the open trajectory,
// and the view of one state's samples side by side. Its actions are in ../siblings.ts.
import type { StateCreator } from 'zustand';
import type { AgreementRow, SiblingLabel, ActionSamples } from '../../../../src-main/common/contract/siblings';
import type { UiStore } from '../ui-store';

export interface SiblingsState {
  /** The trajectory the agreement was computed for. */
  trajectoryId: string | null;
  /** States with two or more samples of an action, least agreement first. */
  rows: AgreementRow[];
  byParent: ReadonlyMap<string, AgreementRow>;
  /** What tells each sample apart in its row (number, seed, perturbation). */
  labels: ReadonlyMap<string, SiblingLabel>;
  /** The list of states by agreement shows rows at or below this agreement (1 shows all). */
  maxAgreement: number;
  listOpen: boolean;
  /** The state whose samples are shown side by side; null when the view is closed. */
  parentId: string | null;
  actions: ActionSamples[];
}

export const createSiblingsSlice: StateCreator<UiStore, [], [], { siblings: SiblingsState }> = () => ({
  siblings: { trajectoryId: null, rows: [], byParent: new Map(), labels: new Map(), maxAgreement: 1, listOpen: false, parentId: null, actions: [] },
});
