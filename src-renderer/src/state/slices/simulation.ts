// The simulation slice's state; its actions are in ../simulation.ts. The tree never reads
// this slice, so streaming tokens re-render the simulate panel alone.
import type { StateCreator } from 'zustand';
import type { IncompleteSample, ModelState, Sampling } from '../../../../src-main/common/contract/simulation';
import type { SampleStream } from '../sample-streams';
import type { UiStore } from '../ui-store';

export interface SimulationJob {
  jobId: string;
  nodeId: string;
  action: string;
  /** One live stream per sample, in sample order. */
  streams: SampleStream[];
  running: boolean;
  cancelled: boolean;
  tokensPerSecond: number | null;
  device: string | null;
}

/** A sample that ran out of tokens: not in the tree; it waits here to be continued, retried or dismissed. */
export interface PendingSample {
  key: string;
  nodeId: string;
  action: string;
  /** The settings it ran with (its own seed included). */
  sampling: Sampling;
  sample: IncompleteSample;
}

/** What the simulate panel holds between runs and across nodes, so a run never resets it. */
export interface SimulateDraft {
  action: string;
  samples: number;
  seed: number;
  /**
   * Why Samples or Seed hold what they hold when the user did not type it (restored from the
   * workspace, or the seed a resample picked); shown beside them until the user changes them.
   */
  setBy?: string | null;
}

export interface SimulationState {
  model: ModelState | null;
  job: SimulationJob | null;
  pending: PendingSample[];
  draft: SimulateDraft;
  /** Whether streamed and pending reasoning shows expanded (the `x` key toggles it). */
  reasoningExpanded: boolean;
  gpuInstallLog: string[];
}

export const createSimulationSlice: StateCreator<UiStore, [], [], { simulation: SimulationState }> = () => ({
  simulation: {
    model: null,
    job: null,
    pending: [],
    draft: { action: '', samples: 1, seed: 0 },
    reasoningExpanded: false,
    gpuInstallLog: [],
  },
});
