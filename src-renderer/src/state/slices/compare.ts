// The sim-vs-real slice's state; its actions are in ../compare.ts.
import type { StateCreator } from 'zustand';
import type { SandboxState, TrajectoryComparison } from '../../../../src-main/common/contract/reality';
import type { UiStore } from '../ui-store';

export interface RealityJob {
  jobId: string;
  label: string;
  done: number;
  total: number | null;
}

export interface CompareState {
  open: boolean;
  /** The path compared: the trajectory and (optionally) the node it passes through. */
  target: { trajectoryId: string; nodeId?: string } | null;
  comparison: TrajectoryComparison | null;
  /** Index into comparison.steps of the step shown. */
  step: number;
  sandboxes: SandboxState[];
  job: RealityJob | null;
}

export const createCompareSlice: StateCreator<UiStore, [], [], { compare: CompareState }> = () => ({
  compare: { open: false, target: null, comparison: null, step: 0, sandboxes: [], job: null },
});
