import { useState } from 'react';
import { parsePartialOutput } from '../../../../src-main/prompt/model-output';
import type { NodeRecord } from '../../../../src-main/trajectory/model';
import { cancelSimulation, simulate, useSimulation } from '../../state/simulation';

/** The largest seed the contract takes (Sampling.seed); a larger one is refused. */
const MAX_SEED = 2 ** 31 - 1;

/** The seed of a resample: another on each press (each is recorded in provenance), within what the contract takes. */
function freshSeed(seed: number): number {
  return (seed + 1000 * (Date.now() % 1000)) % (MAX_SEED + 1);
}

/** "Try an action here": the world model predicts the next state, streamed, K samples at once. */
export function SimulatePanel({ node }: { node: NodeRecord }) {
  const model = useSimulation((s) => s.model);
  const job = useSimulation((s) => s.job);
  const [action, setAction] = useState('');
  const [samples, setSamples] = useState(1);
  const [temperature, setTemperature] = useState(0.7);
  const [seed, setSeed] = useState(0);
  const [maxTokens, setMaxTokens] = useState(256);
  const running = job?.running ?? false;
  const ready = Boolean(model?.loaded) && !running && action.trim() !== '';

  const start = () => {
    if (ready) void simulate(node.id, action, samples, { temperature, seed, maxTokens });
  };

  return (
    <form
      className="simulate"
      aria-label="Simulate an action"
      onSubmit={(e) => {
        e.preventDefault();
        start();
      }}
    >
      <h3>Simulate an action here</h3>
      {!model?.loaded && <p className="muted">No world model is loaded — choose one with the Model button in the toolbar.</p>}
      <label>
        Action
        <textarea
          value={action}
          rows={2}
          spellCheck={false}
          onChange={(e) => setAction(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              start();
            }
          }}
        />
      </label>
      <div className="sampling">
        <label>
          Samples
          <input type="number" min={1} max={16} value={samples} onChange={(e) => setSamples(Math.max(1, Math.min(16, Number(e.target.value) || 1)))} />
        </label>
        <label>
          Temperature
          <input type="number" min={0} max={2} step={0.1} value={temperature} onChange={(e) => setTemperature(Math.max(0, Number(e.target.value) || 0))} />
        </label>
        <label>
          Seed
          <input type="number" min={0} max={MAX_SEED} value={seed} onChange={(e) => setSeed(Math.min(MAX_SEED, Math.max(0, Math.floor(Number(e.target.value) || 0))))} />
        </label>
        <label>
          Max tokens
          <input type="number" min={1} max={8192} value={maxTokens} onChange={(e) => setMaxTokens(Math.max(1, Math.floor(Number(e.target.value) || 1)))} />
        </label>
      </div>
      <div className="row">
        <button type="submit" disabled={!ready} title="Ctrl+Enter">
          {samples > 1 ? `Simulate ×${samples}` : 'Simulate'}
        </button>
        {node.parentId !== null && node.action && (
          <button
            type="button"
            disabled={!model?.loaded || running}
            title="Simulate this node's action again from its parent with fresh seeds (each recorded in provenance): new sibling samples"
            onClick={() => void simulate(node.parentId!, node.action, samples, { temperature, seed: freshSeed(seed), maxTokens })}
          >
            Resample ×{samples}
          </button>
        )}
        {running && (
          <button type="button" onClick={() => void cancelSimulation()}>
            Cancel
          </button>
        )}
        {job && !running && job.tokensPerSecond !== null && (
          <span className="muted" data-testid="simulation-speed">
            {job.cancelled ? 'cancelled · ' : ''}
            {job.tokensPerSecond.toFixed(1)} tok/s on {job.device}
          </span>
        )}
      </div>
      {job && job.nodeId === node.id && running && (
        <div className="streams" aria-live="polite">
          {job.samples.map((text, i) => {
            const partial = parsePartialOutput(text);
            return (
              <div key={i} className="stream" data-testid="simulation-stream">
                <span className="muted">sample {i + 1}</span>
                {partial.reasoning && (
                  <details>
                    <summary>reasoning{partial.reasoningOpen ? '…' : ''}</summary>
                    <pre className="text small">{partial.reasoning}</pre>
                  </details>
                )}
                <pre className="text">{partial.observation || '…'}</pre>
              </div>
            );
          })}
        </div>
      )}
    </form>
  );
}
