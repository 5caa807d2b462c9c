import { parseModelOutput } from '../../../../src-main/common/prompt/model-output';
import { useGenerationSettings } from '../../state/generation-settings';
import { continueSample, dismissPending, largerBudget, retryWithLargerBudget, useSimulation, type PendingSample } from '../../state/simulation';
import { ReasoningText } from './ReasoningText';

function PendingNotice({ pending, busy }: { pending: PendingSample; busy: boolean }) {
  const limit = useGenerationSettings((s) => s.settings?.maxTokensLimit ?? pending.sampling.maxTokens * 2);
  const { sample } = pending;
  const retryBudget = largerBudget(pending.sampling.maxTokens, limit);
  // An answer cut mid-way is shown too: it is what the model wrote, just not a whole state.
  const partialObservation = sample.reason === 'observation' ? parseModelOutput(sample.text).observation : '';
  return (
    <div className="pending-sample" role="alert" data-testid="incomplete-sample">
      <p>
        <strong>
          Sample {sample.sample + 1} {sample.message}
        </strong>
      </p>
      <p className="muted small">
        Not stored in the tree. Seed {sample.seed}, budget {pending.sampling.maxTokens.toLocaleString('en-US')} tokens.
      </p>
      <ReasoningText text={sample.reasoning || null} thinking={false} label="Partial reasoning" />
      {partialObservation && <pre className="text">{partialObservation}</pre>}
      <div className="row">
        <button type="button" disabled={busy} title="Resume from where it stopped, same seed, another budget of the same size" onClick={() => void continueSample(pending.key)}>
          Continue
        </button>
        <button
          type="button"
          disabled={busy || retryBudget <= pending.sampling.maxTokens}
          title={retryBudget <= pending.sampling.maxTokens ? 'The budget is already the most this model takes.' : `Run it again from the start with ${retryBudget.toLocaleString('en-US')} tokens`}
          onClick={() => void retryWithLargerBudget(pending.key)}
        >
          Retry with a larger budget ({retryBudget.toLocaleString('en-US')})
        </button>
        <button type="button" className="link" disabled={busy} onClick={() => dismissPending(pending.key)}>
          Dismiss
        </button>
      </div>
    </div>
  );
}

/** The samples simulated at this node that ran out of tokens, each waiting to be continued or retried. */
export function PendingSamples({ nodeId }: { nodeId: string }) {
  const pending = useSimulation((s) => s.pending);
  const busy = useSimulation((s) => s.job?.running ?? false);
  const here = pending.filter((p) => p.nodeId === nodeId);
  if (here.length === 0) return null;
  return (
    <div className="pending-samples">
      {here.map((p) => (
        <PendingNotice key={p.key} pending={p} busy={busy} />
      ))}
    </div>
  );
}
