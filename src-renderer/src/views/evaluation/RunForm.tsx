import { useRef, useState } from 'react';
import { cancelEvaluation, changeEvaluationForm, startEvaluation, useEvaluation } from '../../state/evaluation';
import { chooseSavePath } from '../../api/download';
import { loadModel, useSimulation } from '../../state/simulation';
import { useUiStore } from '../../state/workspace-actions';
import { modelDisplayName } from '../simulate/model-name';
import { sendBenchmarkFiles } from '../../state/benchmark-upload';

function eta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  return seconds < 90 ? ` · about ${Math.round(seconds)} s left` : ` · about ${Math.round(seconds / 60)} min left`;
}

/**
 * Starts an evaluation of a model on an AgentWorldBench folder: data, output, model and judge;
 * shows its progress with Cancel; a stopped run resumes from what its folder holds.
 */
export function RunForm() {
  const form = useEvaluation((s) => s.form);
  const job = useEvaluation((s) => s.job);
  const lastRun = useEvaluation((s) => s.lastRun);
  const model = useSimulation((s) => s.model);
  const nativeDialogs = useUiStore((s) => s.app?.nativeDialogs ?? false);
  const [otherModel, setOtherModel] = useState('');
  const running = job?.running ?? false;
  const demoDir = useUiStore((s) => s.app?.demoBenchmarkDir ?? null);
  const home = useUiStore((s) => s.app?.defaultWorkspaceDir ?? '');
  // Why Start cannot run yet, said beside it rather than left as a greyed-out button.
  const missing = running
    ? 'An evaluation is running.'
    : !model?.loaded
      ? 'Load a world model first (Model in the toolbar).'
      : !form.dataDir.trim()
        ? 'Give the data folder (or use the demo benchmark).'
        : !form.outDir.trim()
          ? 'Give an output folder for the results.'
          : null;
  const canStart = missing === null;
  const resumable = lastRun !== null && lastRun.interrupted && lastRun.outDir === form.outDir.trim();
  const loadOther = () => {
    const spec = otherModel.trim();
    if (!spec) return;
    void loadModel(/^https?:\/\//.test(spec) ? { kind: 'openai', baseUrl: spec } : { kind: 'onnx', path: spec });
  };
  return (
    <form
      className="eval-run"
      aria-label="Run an evaluation"
      onSubmit={(e) => {
        e.preventDefault();
        if (canStart) void startEvaluation();
      }}
    >
      {demoDir && (
        <p className="row small">
          <button
            type="button"
            onClick={() => changeEvaluationForm({ dataDir: demoDir, limit: form.limit || '4', ...(form.outDir.trim() ? {} : { outDir: `${home.replace(/[\\/]+$/, '')}/worldloom-eval-demo` }) })}
            title="The demo workspace's recorded terminal sessions as AgentWorldBench files: 14 cases"
          >
            Use the demo benchmark
          </button>
          <span className="muted">the demo sessions as AgentWorldBench files, to see how a run looks before you have the benchmark</span>
        </p>
      )}
      <label>
        Data folder (&lt;domain&gt;_test.jsonl files{nativeDialogs ? '' : ', a path on the machine running Worldloom'})
        <span className="row">
          <input value={form.dataDir} onChange={(e) => changeEvaluationForm({ dataDir: e.target.value })} spellCheck={false} />
          {nativeDialogs ? (
            <ChooseFolder title="The benchmark data folder" current={form.dataDir} onChosen={(dataDir) => changeEvaluationForm({ dataDir })} />
          ) : (
            <BenchmarkFilePicker />
          )}
        </span>
      </label>
      <label>
        Output folder (a run there before is resumed)
        <span className="row">
          <input value={form.outDir} onChange={(e) => changeEvaluationForm({ outDir: e.target.value })} spellCheck={false} />
          {nativeDialogs && <ChooseFolder title="Where the run's files go" current={form.outDir} onChosen={(outDir) => changeEvaluationForm({ outDir })} />}
        </span>
      </label>
      <div className="row">
        <span data-testid="eval-model">
          Model: {model?.loading ? 'loading…' : model?.loaded ? modelDisplayName(model.loaded) : <span className="error">none loaded</span>}
        </span>
        <input
          value={otherModel}
          onChange={(e) => setOtherModel(e.target.value)}
          placeholder="another model: folder or http://…/v1"
          aria-label="Another model (folder or URL)"
          spellCheck={false}
        />
        <button type="button" onClick={loadOther} disabled={!otherModel.trim() || running}>
          Load model
        </button>
      </div>
      <label>
        Judge
        <select value={form.judge} onChange={(e) => changeEvaluationForm({ judge: e.target.value as typeof form.judge })}>
          <option value="none">none (rule-based metrics only)</option>
          <option value="openai">a server (OpenAI-compatible)</option>
        </select>
      </label>
      {form.judge === 'openai' ? (
        <div className="row">
          <input value={form.judgeUrl} onChange={(e) => changeEvaluationForm({ judgeUrl: e.target.value })} placeholder="http://127.0.0.1:8000/v1" aria-label="Judge URL" spellCheck={false} />
          <input value={form.judgeModel} onChange={(e) => changeEvaluationForm({ judgeModel: e.target.value })} placeholder="judge model name (optional)" aria-label="Judge model" />
        </div>
      ) : (
        <span />
      )}
      <label>
        Cases (empty for all)
        <input value={form.limit} onChange={(e) => changeEvaluationForm({ limit: e.target.value })} inputMode="numeric" />
      </label>
      <label>
        Max new tokens (empty: the model's own)
        <input value={form.maxTokens} onChange={(e) => changeEvaluationForm({ maxTokens: e.target.value })} inputMode="numeric" />
      </label>
      <label>
        At once
        <input type="number" min={1} max={64} value={form.concurrency} onChange={(e) => changeEvaluationForm({ concurrency: Math.max(1, Number(e.target.value) || 1) })} />
      </label>
      <div className="row">
        <button type="submit" disabled={!canStart} title={missing ?? ''} aria-describedby="eval-start-why">
          {resumable ? 'Resume evaluation' : 'Start evaluation'}
        </button>
        {missing && (
          <span className="muted" id="eval-start-why" data-testid="eval-start-why">
            {missing}
          </span>
        )}
        {running && (
          <button type="button" onClick={() => void cancelEvaluation()}>
            Cancel
          </button>
        )}
      </div>
      {job && (
        <div className="eval-progress row" role="status" aria-label="Evaluation progress">
          <progress max={job.total ?? 1} value={job.total ? job.done : undefined} />
          <span data-testid="eval-progress-text">
            {running ? `${job.label} ${job.done}/${job.total ?? '?'}${eta(job.etaSeconds)}` : lastRun?.error ? 'Failed' : lastRun?.interrupted ? 'Stopped' : 'Finished'}
          </span>
        </div>
      )}
      {lastRun && !running && (
        <div className="row" data-testid="eval-run-end">
          {lastRun.error ? (
            <span className="error">{lastRun.error}</span>
          ) : (
            <span className="muted">
              {lastRun.interrupted
                ? `Stopped: ${lastRun.predicted} predicted this time; Resume goes on from what ${lastRun.outDir} holds.`
                : `Done: ${lastRun.predicted} predicted, ${lastRun.resumed} kept from before.`}
            </span>
          )}
          {lastRun.problems.length > 0 && <span className="muted">Skipped: {lastRun.problems.join('; ')}</span>}
        </div>
      )}
    </form>
  );
}

/** The desktop app's folder chooser beside a folder field. */
function ChooseFolder({ title, current, onChosen }: { title: string; current: string; onChosen(path: string): void }) {
  return (
    <button type="button" onClick={() => void chooseSavePath({ title, defaultPath: current, folder: true }).then((path) => path && onChosen(path))}>
      Choose…
    </button>
  );
}

/** In a browser: pick the <domain>_test.jsonl files themselves; they are sent to the machine running Worldloom. */
function BenchmarkFilePicker() {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} title="Choose AgentWorldBench files (<domain>_test.jsonl); they are copied to the machine running Worldloom">
        Choose files…
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept=".jsonl"
        hidden
        data-testid="benchmark-files"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) void sendBenchmarkFiles(files);
        }}
      />
    </>
  );
}
