import type { Domain, NodeRecord } from '../../../../src-main/common/trajectory/model';
import { useUiStore } from '../../state/workspace-actions';
import { useGenerationSettings } from '../../state/generation-settings';
import { cancelSimulation, changeDraft, MAX_SEED, resample, simulate, useSimulation } from '../../state/simulation';
import { PendingSamples } from './PendingSamples';
import { SampleStreams } from './SampleStreams';
import { SamplingFields } from './SamplingFields';
import { DemoModelNote } from './DemoModelNote';

const MAX_SAMPLES = 64;

/** What an action looks like in each domain, as the empty action box hints it (an MCP action is a tool call). */
const ACTION_HINTS: Partial<Record<Domain, string>> = {
  terminal: 'A shell command, e.g. ls -la',
  swe: 'A shell command, e.g. pytest -x tests/',
  mcp: 'A tool call as JSON: {"name": "tool_name", "arguments": {"key": "value"}}',
  search: 'A search, e.g. search("opening hours of the city library")',
};

/** How fast the last run went, once it ended. */
function LastRunSpeed() {
  const job = useSimulation((s) => s.job);
  if (!job || job.running || job.tokensPerSecond === null) return null;
  return (
    <span className="muted" data-testid="simulation-speed">
      {job.cancelled ? 'cancelled · ' : ''}
      {job.tokensPerSecond.toFixed(1)} tok/s on {job.device}
    </span>
  );
}

function LiveStreams() {
  const job = useSimulation((s) => s.job);
  return job ? <SampleStreams job={job} /> : null;
}

/**
 * "Try an action here": the world model predicts the next state, streamed, K samples at once.
 * What is typed and set here lives in the store, so a run (which moves the selection to the
 * new state) keeps it.
 */
export function SimulatePanel({ node }: { node: NodeRecord }) {
  const model = useSimulation((s) => s.model);
  // Only what changes at the start and end of a run: the streams re-render on their own, not the form.
  const running = useSimulation((s) => s.job?.running ?? false);
  const streamingHere = useSimulation((s) => Boolean(s.job?.running && s.job.nodeId === node.id));
  const draft = useSimulation((s) => s.draft);
  const domain = useUiStore((s) => s.trajectory?.domain);
  const settings = useGenerationSettings((s) => s.settings);
  const ready = Boolean(model?.loaded) && !running && draft.action.trim() !== '';

  const start = () => {
    if (ready) void simulate(node.id, draft.action, draft.samples, draft.seed);
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
      <DemoModelNote />
      <label>
        Action
        <textarea
          value={draft.action}
          rows={2}
          placeholder={ACTION_HINTS[domain ?? 'terminal'] ?? 'The agent\'s next action, written as this trajectory writes its actions'}
          spellCheck={false}
          data-shortcut-target="simulate-action"
          onChange={(e) => changeDraft({ action: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              if (running) void cancelSimulation();
              else start();
            }
          }}
        />
      </label>
      <div className="sampling">
        <label>
          Samples
          <input
            type="number"
            min={1}
            max={MAX_SAMPLES}
            value={draft.samples}
            onChange={(e) => changeDraft({ samples: Math.max(1, Math.min(MAX_SAMPLES, Math.floor(Number(e.target.value)) || 1)) })}
          />
        </label>
        <label title="Sample i of a run uses this seed + i; each is recorded in the new node's provenance">
          Seed
          <input
            type="number"
            min={0}
            max={MAX_SEED}
            value={draft.seed}
            onChange={(e) => changeDraft({ seed: Math.min(MAX_SEED, Math.max(0, Math.floor(Number(e.target.value) || 0))) })}
          />
        </label>
      </div>
      {draft.setBy && (
        <p className="muted small setting-source" role="status" data-testid="draft-set-by">
          {draft.setBy}
        </p>
      )}
      {settings ? <SamplingFields settings={settings} /> : <p className="muted small">Reading the generation settings…</p>}
      <div className="row">
        <button type="submit" disabled={!ready} title="Ctrl+Enter">
          {draft.samples > 1 ? `Simulate ×${draft.samples}` : 'Simulate'}
        </button>
        {node.parentId !== null && node.action && (
          <button
            type="button"
            disabled={!model?.loaded || running}
            title="Simulate this node's action again from its parent with fresh seeds (each recorded in provenance): new sibling samples"
            onClick={() => void resample(node.parentId!, node.action, draft.samples)}
          >
            Resample ×{draft.samples}
          </button>
        )}
        {running && (
          <button type="button" title="Ctrl+Enter" onClick={() => void cancelSimulation()}>
            Cancel
          </button>
        )}
        <LastRunSpeed />
      </div>
      {streamingHere && <LiveStreams />}
      <PendingSamples nodeId={node.id} />
    </form>
  );
}
