// The perturbation slice's state; its actions are in ../perturbation.ts.
import type { StateCreator } from 'zustand';
import type { ApiOutput } from '../../../../src-main/common/contract/api';
import type { PerturbationKindInfo } from '../../../../src-main/common/contract/perturbation';
import type { Domain } from '../../../../src-main/common/trajectory/model';
import type { UiStore } from '../ui-store';

/** The answer to saving the workspace perturbation file: saved, or refused with every problem. */
export type UserFileReport = ApiOutput<'perturb.setUserFile'>;

/** The workspace perturbation file as it is being edited. */
export interface UserFileDraft {
  /** The workspace it was read from. */
  workspace: string;
  text: string;
  /** The text as last read or saved: the draft has unsaved changes while it differs. */
  saved: string;
  report: UserFileReport | null;
}

export interface PerturbationState {
  domain: Domain | null;
  kinds: PerturbationKindInfo[];
  running: boolean;
  /** Kept here rather than in the panel, which is rebuilt for every node, so unsaved text survives moving through the tree. */
  userFile: UserFileDraft | null;
}

export const createPerturbationSlice: StateCreator<UiStore, [], [], { perturbation: PerturbationState }> = () => ({
  perturbation: { domain: null, kinds: [], running: false, userFile: null },
});
