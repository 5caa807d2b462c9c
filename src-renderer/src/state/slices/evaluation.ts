// The evaluation slice's state; its actions are in ../evaluation.ts.
import type { StateCreator } from 'zustand';
import type { EvaluatedSample, ScoreSummary } from '../../../../src-main/common/contract/evaluation';
import type { StudioStore } from '../studio';

export interface EvaluationState {
  outDir: string;
  /** Null until a run is read. */
  summary: ScoreSummary | null;
  samples: EvaluatedSample[];
}

export const createEvaluationSlice: StateCreator<StudioStore, [], [], { evaluation: EvaluationState }> = () => ({
  evaluation: { outDir: '', summary: null, samples: [] },
});
