// The export dialog: choose examples (filters, part of the tree) with a live count and a
// preview, choose a format and the cleaning, then export with progress and cancel.
import { chooseSavePath, downloadsThroughBrowser } from '../../api/download';
import { useEffect, useMemo } from 'react';
import { changeForm, openExportDialog, refreshPreview, startExport, useDatasetExport, writesOneFile, type ExportForm, type ExportFormatChoice } from '../../state/dataset';
import { useUiStore } from '../../state/workspace-actions';
import { ExportProgress } from './ExportProgress';
import { ExamplePreview } from './ExamplePreview';
import { SelectionFields } from './SelectionFields';
import './dataset.css';

const NO_FORMATS: never[] = [];

/** A file export's path ends in its format's extension; a dataset folder's does not. */
function outFor(out: string, from: { extensions: string[] } | undefined, fromFile: boolean, to: { extensions: string[] } | undefined, toFile: boolean): string {
  const fromExt = fromFile && from?.extensions[0] ? `.${from.extensions[0]}` : null;
  const base = fromExt && out.endsWith(fromExt) ? out.slice(0, -fromExt.length) : out;
  const toExt = toFile && to?.extensions[0] ? `.${to.extensions[0]}` : '';
  return base.endsWith(toExt) ? base : base + toExt;
}

export function ExportDialog({ onDone }: { onDone: () => void }) {
  const workspacePath = useUiStore((s) => s.workspace?.path ?? '');
  const nativeDialogs = useUiStore((s) => s.app?.nativeDialogs ?? false);
  const trajectoryId = useUiStore((s) => s.trajectory?.id ?? null);
  const nodeId = useUiStore((s) => s.selectedNodeId);
  const focus = useMemo(() => ({ trajectoryId, nodeId }), [trajectoryId, nodeId]);
  const { form, preview, job, result, error } = useDatasetExport();
  const change = (patch: Partial<ExportForm>) => changeForm(patch, focus);
  // The formats the core's registry can export, in its order: the one list, not a copy.
  const formats = useUiStore((s) => s.app?.formats ?? NO_FORMATS).filter((f) => f.exportsTo.length > 0);
  const dataset = !writesOneFile(form.format);

  useEffect(() => {
    const name = workspacePath.replace(/\.worldloom$/, '') + '-dataset';
    // In a browser the name is what the download is saved as: never a path on the machine serving it.
    openExportDialog(downloadsThroughBrowser() ? (name.split(/[\\/]/).pop() ?? name) : name);
  }, [workspacePath]);
  useEffect(() => {
    void refreshPreview(focus);
  }, [focus]);

  const running = job?.running ?? false;
  return (
    <form
      className="dataset-dialog"
      aria-label="Export dataset"
      onSubmit={(e) => {
        e.preventDefault();
        void startExport(focus);
      }}
    >
      {dataset && <SelectionFields form={form} change={change} hasTrajectory={trajectoryId !== null} hasNode={nodeId !== null} filterError={preview?.filterError ?? null} />}
      {dataset && <ExamplePreview preview={preview} />}
      <fieldset className="dataset-fieldset">
        <legend>Format</legend>
        <label>
          Format
          <select
            aria-label="Format"
            value={form.format}
            onChange={(e) => {
              const format = e.target.value as ExportFormatChoice;
              const from = formats.find((f) => f.id === form.format);
              const to = formats.find((f) => f.id === format);
              const out = outFor(form.out, from, writesOneFile(form.format), to, writesOneFile(format));
              // AgentWorldBench files hold whole paths.
              // AgentWorldBench files hold whole paths; preference files hold pairs of one step; prompt/completion one step.
              const fixed: Partial<ExportForm> =
                format === 'agentworldbench'
                  ? { per: 'path', builder: 'world-model' }
                  : format === 'preference'
                    ? { per: 'step', builder: 'preference' }
                    : format === 'prompt-completion'
                      ? { per: 'step', ...(form.builder === 'preference' ? { builder: 'world-model' as const } : {}) }
                      : {};
              change({ format, out, ...fixed });
            }}
          >
            {formats.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {dataset
            ? downloadsThroughBrowser()
              ? 'Export as (name of the .zip your browser saves)'
              : 'Export to folder (path on the machine running Worldloom)'
            : downloadsThroughBrowser()
              ? 'Export to file (name your browser saves it under)'
              : 'Export to file (path on the machine running Worldloom)'}
          <span className="row">
            <input value={form.out} onChange={(e) => change({ out: e.target.value })} spellCheck={false} />
            {nativeDialogs && (
              <button
                type="button"
                onClick={() =>
                  void chooseSavePath({ title: dataset ? 'Export the dataset into' : 'Export to', defaultPath: form.out, extensions: dataset ? [] : (formats.find((f) => f.id === form.format)?.extensions ?? []), folder: dataset }).then(
                    (path) => path && change({ out: path }),
                  )
                }
              >
                Choose…
              </button>
            )}
          </span>
        </label>
        {dataset && (
          <div className="dataset-grid">
            <label>
              Examples teach
              <select
                value={form.builder}
                disabled={form.format === 'agentworldbench' || form.format === 'preference'}
                onChange={(e) => {
                  const builder = e.target.value as ExportForm['builder'];
                  change({ builder, ...(builder === 'preference' ? { per: 'step' as const } : {}) });
                }}
              >
                <option value="world-model">the world model (action → observation)</option>
                <option value="agent">an agent (observation → tool call)</option>
                <option value="preference">preferences (rated or starred siblings, for DPO)</option>
              </select>
            </label>
            <label>
              One example per
              <select value={form.per} disabled={form.format === 'agentworldbench' || form.format === 'prompt-completion' || form.builder === 'preference'} onChange={(e) => change({ per: e.target.value as ExportForm['per'] })}>
                <option value="step">step</option>
                <option value="path">path</option>
              </select>
            </label>
            <label className="dataset-check">
              <input type="checkbox" checked={form.reasoning} disabled={form.format === 'agentworldbench'} onChange={(e) => change({ reasoning: e.target.checked })} />
              {form.builder === 'agent' ? "Keep the agent's reasoning" : 'Keep reasoning'}
            </label>
            {(form.format === 'messages' || form.format === 'prompt-completion' || form.format === 'preference') && form.reasoning && (
              <label>
                Reasoning as
                <select value={form.reasoningStyle} onChange={(e) => change({ reasoningStyle: e.target.value as ExportForm['reasoningStyle'] })}>
                  <option value="field">reasoning_content (TRL)</option>
                  <option value="inline">&lt;think&gt; in content (ms-swift)</option>
                </select>
              </label>
            )}
            <label>
              Train fraction
              <input type="number" min={0.01} max={1} step="any" value={form.split} onChange={(e) => change({ split: Number(e.target.value) })} />
            </label>
            <label>
              Split seed
              <input type="number" min={0} step={1} value={form.seed} onChange={(e) => change({ seed: Math.max(0, Math.trunc(Number(e.target.value))) })} />
            </label>
            <label>
              Max tokens
              <input
                type="number"
                min={1}
                placeholder="no limit"
                value={form.maxTokens ?? ''}
                onChange={(e) => change({ maxTokens: e.target.value ? Math.max(1, Math.trunc(Number(e.target.value))) : null })}
              />
            </label>
            <label className="dataset-check">
              <input type="checkbox" checked={form.dedup} onChange={(e) => change({ dedup: e.target.checked })} />
              Remove duplicates
            </label>
            <label className="dataset-check">
              <input type="checkbox" checked={form.scrub} onChange={(e) => change({ scrub: e.target.checked })} />
              Scrub keys, e-mails, IPs
            </label>
            <label className="dataset-check">
              <input type="checkbox" checked={form.overwrite} onChange={(e) => change({ overwrite: e.target.checked })} />
              Replace an earlier export
            </label>
          </div>
        )}
        {error && (
          <p role="alert" className="dataset-error">
            {error}
          </p>
        )}
        <ExportProgress job={job} result={result} />
        <div className="dataset-actions">
          <button type="submit" disabled={running || !form.out.trim() || (dataset && (preview?.examples ?? 0) === 0)}>
            Export
          </button>
          <button type="button" onClick={onDone} disabled={running}>
            Done
          </button>
        </div>
      </fieldset>
    </form>
  );
}
