// The dataset-export slice: the export dialog's choices, the live count and preview of
// the selection, and the export job in progress. Changed only by the actions below and
// by `job.progress` events for the export's own job id.
import { downloadsThroughBrowser, fileNameOf, saveDownload } from '../api/download';
import type { SelectionScope } from '../../../src-main/common/contract/dataset';
import type { JobProgress } from '../../../src-main/common/contract/jobs';
import { call } from '../api/client';
import { notify, useUiStore } from './workspace-actions';
import { areaHook } from './ui-store';
import type { ExportForm, ExportFormatChoice, ScopeChoice } from './slices/dataset';
import { plural } from '../../../src-main/common/plural';

export type { ExportFormatChoice, ExportForm, ExportJob, ScopeChoice } from './slices/dataset';

/** Whether the format writes every trajectory to one file (it has no dataset writer), as the core's registry says. */
export function writesOneFile(format: ExportFormatChoice): boolean {
  const entry = useUiStore.getState().app?.formats.find((f) => f.id === format);
  return entry !== undefined && !entry.exportsTo.includes('folder');
}

export const useDatasetExport = areaHook('dataset');
const set = useDatasetExport.setState;
const get = useDatasetExport.getState;

/** The quick filters and the typed expression as one filter expression. */
export function effectiveFilter(form: ExportForm): string {
  const parts: string[] = [];
  if (form.domain) parts.push(`domain = ${form.domain}`);
  if (form.origin) parts.push(`origin = ${form.origin}`);
  if (form.starredOnly) parts.push('starred');
  if (form.minRating !== null) parts.push(`rating >= ${form.minRating}`);
  if (form.expression.trim()) parts.push(parts.length ? `(${form.expression.trim()})` : form.expression.trim());
  return parts.join(' and ');
}

export interface TreeFocus {
  trajectoryId: string | null;
  nodeId: string | null;
}

export function scopeFor(choice: ScopeChoice, focus: TreeFocus): SelectionScope {
  if (choice === 'trajectory' && focus.trajectoryId) return { kind: 'trajectories', trajectoryIds: [focus.trajectoryId] };
  if ((choice === 'path' || choice === 'subtree') && focus.nodeId) return { kind: choice, nodeId: focus.nodeId };
  return { kind: 'all' };
}

/** Progress of the export this dialog runs (routed here by state/change-events.ts). */
export function followExportJob({ jobId, label, done, total, finished }: JobProgress): void {
  const job = get().job;
  if (!job || job.jobId !== jobId) return;
  set({ job: { ...job, label, done, total, running: !finished && job.running } });
}

export function openExportDialog(defaultOut: string): void {
  const { form } = get();
  set({ form: form.out ? form : { ...form, out: defaultOut }, result: null, error: null });
}

let previewTimer: ReturnType<typeof setTimeout> | undefined;
let previewSeq = 0;

export function changeForm(patch: Partial<ExportForm>, focus: TreeFocus): void {
  set({ form: { ...get().form, ...patch }, result: null, error: null });
  // Typing in the filter should not send a request per key.
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => void refreshPreview(focus), 250);
}

export async function refreshPreview(focus: TreeFocus): Promise<void> {
  const { form } = get();
  const seq = ++previewSeq;
  try {
    const preview = await call('dataset.preview', {
      selection: { filter: effectiveFilter(form), scope: scopeFor(form.scope, focus) },
      examples: { builder: form.builder, per: form.per, reasoning: form.reasoning },
      limit: 3,
    });
    // An older answer arriving late must not replace a newer one.
    if (seq === previewSeq) set({ preview });
  } catch (err) {
    if (seq === previewSeq) set({ error: (err as Error).message });
  }
}

export async function startExport(focus: TreeFocus): Promise<void> {
  const { form } = get();
  const out = form.out.trim();
  const jobId = `export-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  set({ job: { jobId, label: 'Starting', done: 0, total: null, running: true }, result: null, error: null });
  if (writesOneFile(form.format)) {
    // A job like the dataset export: its progress shows here and Cancel leaves no file behind.
    try {
      const download = downloadsThroughBrowser();
      const r = await call('export.file', { path: download ? fileNameOf(out) : out, format: form.format, jobId, download });
      if (r.downloadId) {
        saveDownload(r.downloadId);
        notify('info', `Exported ${plural(r.trajectories, 'trajectory', 'trajectories')} (${plural(r.records, 'record')}); the browser saves ${r.path}`);
      } else notify('info', `Exported ${plural(r.trajectories, 'trajectory', 'trajectories')} (${plural(r.records, 'record')}) to ${r.path}`);
    } catch (err) {
      set({ error: (err as Error).message });
    } finally {
      const job = get().job;
      if (job?.jobId === jobId) set({ job: { ...job, running: false } });
    }
    return;
  }
  try {
    const download = downloadsThroughBrowser();
    const result = await call('dataset.export', {
      jobId,
      out: download ? fileNameOf(out) : out,
      download,
      format: form.format,
      selection: { filter: effectiveFilter(form), scope: scopeFor(form.scope, focus) },
      examples: { builder: form.builder, per: form.per, reasoning: form.reasoning },
      split: form.split,
      seed: form.seed,
      dedup: form.dedup,
      scrub: form.scrub,
      maxTokens: form.maxTokens,
      reasoningStyle: form.reasoningStyle,
      overwrite: form.overwrite,
    });
    set({ result });
    const total = result.examples.train + result.examples.validation;
    if (result.downloadId) saveDownload(result.downloadId);
    notify('info', `Exported ${plural(total, 'example')} (train ${result.examples.train}, validation ${result.examples.validation}) ${result.downloadId ? `as ${result.out}; the browser saves it` : `to ${result.out}`}`);
  } catch (err) {
    set({ error: (err as Error).message });
  } finally {
    const job = get().job;
    if (job?.jobId === jobId) set({ job: { ...job, running: false } });
  }
}

export async function cancelExport(): Promise<void> {
  const job = get().job;
  if (!job?.running) return;
  await call('job.cancel', { jobId: job.jobId });
}
