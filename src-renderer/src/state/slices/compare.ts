// The sim-vs-real slice's state; its actions are in ../compare.ts.
import type { StateCreator } from 'zustand';
import type { ModelComparison, SandboxState, SimVsRealReport, TrajectoryComparison } from '../../../../src-main/common/contract/reality';
import type { StepFailure } from '../../../../src-main/common/contract/jobs';
import type { UiStore } from '../ui-store';

export interface RealityJob {
  jobId: string;
  label: string;
  done: number;
  total: number | null;
  /** A job running many steps at once: finished, in flight, failed, and the rate. */
  steps?: { done: number; inFlight: number; failed: number; perSecond: number };
}

/** Sim vs real over many recorded trajectories, and which of two world models came closer. */
export interface CorpusState {
  open: boolean;
  /** The export filter language: trajectories with a recorded step it selects are replayed. */
  filter: string;
  trajectoryIds: string[];
  report: SimVsRealReport | null;
  failures: StepFailure[];
  /** New tokens per second of the last replay (its wall time). */
  tokensPerSecond: number | null;
  /** The models whose replays these trajectories hold: what an A/B can compare. */
  models: { key: string; label: string; predictions: number }[];
  ab: ModelComparison | null;
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
  corpus: CorpusState;
}

export const createCompareSlice: StateCreator<UiStore, [], [], { compare: CompareState }> = () => ({
  compare: {
    open: false,
    target: null,
    comparison: null,
    step: 0,
    sandboxes: [],
    job: null,
    corpus: { open: false, filter: 'origin in (real, imported)', trajectoryIds: [], report: null, failures: [], tokensPerSecond: null, models: [], ab: null },
  },
});
