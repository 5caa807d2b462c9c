// "Expand…": a policy expands the selected node breadth-first — K actions per node from a
// script of candidate actions or an OpenAI-compatible chat model, M samples of each, D levels
// deep, within a token or time budget — as one job with progress and Cancel. The new nodes
// reach the tree through the core's nodes.added events as they are made.
import { useState } from 'react';
import type { ExpandResult, PolicySpec } from '../../../../src-main/common/contract/agents';
import type { JobProgress } from '../../../../src-main/common/contract/jobs';
import { cancelJob, expandWithPolicy } from '../../state/expansion';
import { useUiStore } from '../../state/workspace-actions';
import { plural } from '../../../../src-main/common/plural';

const STOPPED: Record<ExpandResult['stoppedBy'], string> = {
  done: 'every level expanded',
  tokens: 'the token budget ran out',
  time: 'the time budget ran out',
  cancelled: 'cancelled',
  'no-actions': 'the policy proposed no more actions',
};

const whole = (text: string, min: number, max: number) => Math.max(min, Math.min(max, Math.floor(Number(text)) || min));

export function ExpandDialog({ onDone }: { onDone: () => void }) {
  const nodeId = useUiStore((s) => s.selectedNodeId);
  const [policyKind, setPolicyKind] = useState<'script' | 'openai'>('script');
  const [script, setScript] = useState('');
  const [baseUrl, setBaseUrl] = useState('http://127.0.0.1:8000/v1');
  const [model, setModel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [temperature, setTemperature] = useState(0.8);
  const [actions, setActions] = useState(2);
  const [samples, setSamples] = useState(1);
  const [depth, setDepth] = useState(3);
  const [tokenBudget, setTokenBudget] = useState('');
  const [timeBudget, setTimeBudget] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const [progress, setProgress] = useState<JobProgress | null>(null);
  const [result, setResult] = useState<ExpandResult | null>(null);
  const [error, setError] = useState('');

  const policy = (): PolicySpec =>
    policyKind === 'script'
      ? { kind: 'script', text: script, name: 'expand dialog' }
      : { kind: 'openai', baseUrl: baseUrl.trim(), ...(model.trim() ? { model: model.trim() } : {}), ...(apiKey ? { apiKey } : {}), temperature, maxTokens: 1024, seed: 0 };

  const start = async () => {
    if (!nodeId) return;
    const id = `expand-${crypto.randomUUID()}`;
    setJobId(id);
    setResult(null);
    setError('');
    setProgress(null);
    try {
      const done = await expandWithPolicy(
        {
          jobId: id,
          nodeId,
          policy: policy(),
          actions,
          samples,
          depth,
          ...(tokenBudget.trim() ? { tokenBudget: whole(tokenBudget, 1, 1e12) } : {}),
          ...(timeBudget.trim() ? { timeBudgetSeconds: whole(timeBudget, 1, 7 * 24 * 3600) } : {}),
        },
        setProgress,
      );
      setResult(done);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setJobId(null);
    }
  };

  const running = jobId !== null;
  const ready = Boolean(nodeId) && !running && (policyKind === 'script' ? script.trim() !== '' : baseUrl.trim() !== '');
  return (
    <form
      className="sheet expand-dialog"
      aria-label="Expand with a policy"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) void start();
      }}
    >
      <h3>Expand the selected node with a policy</h3>
      {!nodeId && <p className="muted">Select a node in the tree first.</p>}
      <div role="group" aria-label="Policy" className="row">
        <label className="inline">
          <input type="radio" checked={policyKind === 'script'} onChange={() => setPolicyKind('script')} /> script of candidate actions
        </label>
        <label className="inline">
          <input type="radio" checked={policyKind === 'openai'} onChange={() => setPolicyKind('openai')} /> OpenAI-compatible chat model
        </label>
      </div>
      {policyKind === 'script' ? (
        <label>
          Candidate actions (one per line, or JSON: a list, or a list per level) — read as text, never run
          <textarea aria-label="Candidate actions" value={script} rows={5} spellCheck={false} autoFocus onChange={(e) => setScript(e.target.value)} />
        </label>
      ) : (
        <>
          <label>
            Base URL <input aria-label="Policy base URL" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
          </label>
          <label>
            Model (empty: the server's only model) <input aria-label="Policy model" value={model} onChange={(e) => setModel(e.target.value)} />
          </label>
          <label>
            API key (kept for this run only) <input aria-label="Policy API key" type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
          </label>
          <label>
            Temperature <input type="number" min={0} max={2} step={0.1} value={temperature} onChange={(e) => setTemperature(Math.max(0, Math.min(2, Number(e.target.value) || 0)))} />
          </label>
        </>
      )}
      <div className="sampling">
        <label title="Actions the policy proposes at each node">
          Actions per node (K) <input aria-label="Actions per node" type="number" min={1} max={16} value={actions} onChange={(e) => setActions(whole(e.target.value, 1, 16))} />
        </label>
        <label title="Samples the world model simulates of each action">
          Samples per action (M) <input aria-label="Samples per action" type="number" min={1} max={16} value={samples} onChange={(e) => setSamples(whole(e.target.value, 1, 16))} />
        </label>
        <label title="Levels below the selected node">
          Depth (D) <input aria-label="Depth" type="number" min={1} max={8} value={depth} onChange={(e) => setDepth(whole(e.target.value, 1, 8))} />
        </label>
        <label>
          Token budget <input aria-label="Token budget" type="number" min={1} placeholder="none" value={tokenBudget} onChange={(e) => setTokenBudget(e.target.value)} />
        </label>
        <label>
          Time budget (s) <input aria-label="Time budget" type="number" min={1} placeholder="none" value={timeBudget} onChange={(e) => setTimeBudget(e.target.value)} />
        </label>
      </div>
      {running && (
        <div className="row" data-testid="expand-progress">
          <progress aria-label="Expansion progress" max={progress?.total ?? undefined} value={progress?.total ? progress.done : undefined} />
          <span className="muted">{progress?.label ?? 'Starting…'}</span>
        </div>
      )}
      {result && (
        <p data-testid="expand-result">
          Added {plural(result.nodes.length, 'node')} over {plural(result.levels, 'level')} ({STOPPED[result.stoppedBy]}; {result.tokens} tokens
          {result.incomplete > 0 ? `; ${plural(result.incomplete, 'sample')} ran out of tokens and ${result.incomplete === 1 ? 'was' : 'were'} not kept` : ''}).
        </p>
      )}
      {result && result.failures.length > 0 && (
        <div className="error" data-testid="expand-failures">
          {plural(result.failures.length, 'simulation')} failed after the model's retries; every other one kept its nodes:
          <ul>
            {result.failures.slice(0, 10).map((f) => (
              <li key={f.step}>
                {f.step}: {f.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {error && <p className="error">{error}</p>}
      <div className="row">
        <button type="submit" disabled={!ready}>
          Expand
        </button>
        {running && (
          <button type="button" onClick={() => void cancelJob(jobId!)}>
            Cancel
          </button>
        )}
        <button type="button" onClick={onDone}>
          Close
        </button>
      </div>
    </form>
  );
}
