// The renderer's one UI store (not the core's Studio), composed of slices (each a StateCreator in ./slices/). The
// workspace slice sits at the top level; every other area keeps its state under its own key,
// so two areas never share a field name, and a change to one area leaves every other area's
// objects as they were: a view's narrow selector (the tree's, say) sees nothing new when
// tokens stream into the simulation slice. Each area's actions stay in that area's file.
import { create } from 'zustand';
import { createCompareSlice, type CompareState } from './slices/compare';
import { createDatasetSlice, type DatasetState } from './slices/dataset';
import { createEvaluationSlice, type EvaluationState } from './slices/evaluation';
import { createExactPromptSlice, type ExactPromptState } from './slices/exact-prompt';
import { createGenerationSettingsSlice, type GenerationSettingsState } from './slices/generation-settings';
import { createNodeRecordsSlice, type NodeRecordsState } from './slices/node-records';
import { createOverlaysSlice, type OverlaysState } from './slices/overlays';
import { createPerturbationSlice, type PerturbationState } from './slices/perturbation';
import { createSiblingsSlice, type SiblingsState } from './slices/siblings';
import { createSimulationSlice, type SimulationState } from './slices/simulation';
import { createWorkspaceSlice, type WorkspaceSlice } from './slices/workspace';

export interface AreaStates {
  compare: CompareState;
  dataset: DatasetState;
  evaluation: EvaluationState;
  exactPrompt: ExactPromptState;
  generationSettings: GenerationSettingsState;
  nodeRecords: NodeRecordsState;
  overlays: OverlaysState;
  perturbation: PerturbationState;
  siblings: SiblingsState;
  simulation: SimulationState;
}

export type UiStore = WorkspaceSlice & AreaStates;

export const useUiStore = create<UiStore>()((...a) => ({
  ...createWorkspaceSlice(...a),
  ...createCompareSlice(...a),
  ...createDatasetSlice(...a),
  ...createEvaluationSlice(...a),
  ...createExactPromptSlice(...a),
  ...createGenerationSettingsSlice(...a),
  ...createNodeRecordsSlice(...a),
  ...createOverlaysSlice(...a),
  ...createPerturbationSlice(...a),
  ...createSiblingsSlice(...a),
  ...createSimulationSlice(...a),
}));

type Change<S> = Partial<S> | ((state: S) => Partial<S>);

/** One area's view of the one store: a hook over its slice, and getState/setState for its actions. */
export interface AreaHook<S> {
  (): S;
  <T>(selector: (state: S) => T): T;
  getState(): S;
  setState(change: Change<S>): void;
}

/**
 * The hook an area's views use (`useCompare((s) => s.step)`): a selector over that area's
 * slice of the one store, so each view re-renders only when what it selects changes.
 */
export function areaHook<K extends keyof AreaStates>(key: K): AreaHook<AreaStates[K]> {
  type S = AreaStates[K];
  function useArea<T>(selector?: (state: S) => T): S | T {
    return useUiStore((all) => (selector ? selector(all[key]) : all[key]));
  }
  const hook = useArea as AreaHook<S>;
  hook.getState = () => useUiStore.getState()[key];
  hook.setState = (change) =>
    useUiStore.setState((all) => {
      const part = typeof change === 'function' ? change(all[key]) : change;
      return { [key]: { ...all[key], ...part } } as Pick<UiStore, K>;
    });
  return hook;
}
