// The dataset-export slice's state; its actions are in ../dataset.ts.
import type { StateCreator } from 'zustand';
import { EXPORT_DEFAULTS, type DatasetExportSummary, type DatasetFormat, type DatasetPreview } from '../../../../src-main/common/contract/dataset';
import type { Domain, Origin } from '../../../../src-main/common/trajectory/model';
import type { UiStore } from '../ui-store';

/** A format id of the core's format registry (`app.info.formats`). */
export type ExportFormatChoice = DatasetFormat;

export type ScopeChoice = 'all' | 'trajectory' | 'path' | 'subtree';

export interface ExportForm {
  format: ExportFormatChoice;
  out: string;
  /** Quick filters; they join the free expression with "and". */
  domain: Domain | '';
  origin: Origin | '';
  starredOnly: boolean;
  minRating: number | null;
  expression: string;
  scope: ScopeChoice;
  builder: 'world-model' | 'agent' | 'preference';
  per: 'step' | 'path';
  reasoning: boolean;
  reasoningStyle: 'field' | 'inline';
  split: number;
  seed: number;
  dedup: boolean;
  scrub: boolean;
  maxTokens: number | null;
  overwrite: boolean;
}

export interface ExportJob {
  jobId: string;
  label: string;
  done: number;
  total: number | null;
  running: boolean;
}

export interface DatasetState {
  form: ExportForm;
  preview: DatasetPreview | null;
  job: ExportJob | null;
  result: DatasetExportSummary | null;
  error: string | null;
}

const initialForm: ExportForm = {
  format: 'messages',
  out: '',
  domain: '',
  origin: '',
  starredOnly: false,
  minRating: null,
  expression: '',
  scope: 'all',
  builder: 'world-model',
  per: 'step',
  reasoning: false,
  reasoningStyle: 'field',
  split: EXPORT_DEFAULTS.split,
  seed: 0,
  dedup: EXPORT_DEFAULTS.dedup,
  scrub: false,
  maxTokens: null,
  overwrite: false,
};

export const createDatasetSlice: StateCreator<UiStore, [], [], { dataset: DatasetState }> = () => ({
  dataset: { form: initialForm, preview: null, job: null, result: null, error: null },
});
