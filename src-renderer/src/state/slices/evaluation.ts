// The evaluation slice's state; its actions are in ../evaluation.ts.
import type { StateCreator } from 'zustand';
import type { BenchmarkCaseView, EvaluatedCase, ScoreSummary } from '../../../../src-main/common/contract/evaluation';
import type { UiStore } from '../ui-store';

/** What the panel's run form holds: a data folder, where results go, and who judges. */
export interface EvaluationForm {
  dataDir: string;
  outDir: string;
  judge: 'none' | 'openai';
  judgeUrl: string;
  judgeModel: string;
  /** Empty for every case. */
  limit: string;
  /** Empty for the model's own recommendation. */
  maxTokens: string;
  concurrency: number;
}

export interface EvaluationJob {
  jobId: string;
  label: string;
  done: number;
  total: number | null;
  etaSeconds: number | null;
  running: boolean;
}

/** How the last run from this panel ended. */
export interface EvaluationRunEnd {
  outDir: string;
  interrupted: boolean;
  predicted: number;
  resumed: number;
  problems: string[];
  error: string | null;
}

export interface EvaluationState {
  outDir: string;
  /** Null until a run is read. */
  summary: ScoreSummary | null;
  cases: EvaluatedCase[];
  /** The case shown beside its ground truth (benchmark data, never in the workspace). */
  benchmarkCase: BenchmarkCaseView | null;
  form: EvaluationForm;
  job: EvaluationJob | null;
  lastRun: EvaluationRunEnd | null;
}

export const createEvaluationSlice: StateCreator<UiStore, [], [], { evaluation: EvaluationState }> = () => ({
  evaluation: {
    outDir: '',
    summary: null,
    cases: [],
    benchmarkCase: null,
    form: { dataDir: '', outDir: '', judge: 'none', judgeUrl: '', judgeModel: '', limit: '', maxTokens: '', concurrency: 4 },
    job: null,
    lastRun: null,
  },
});
