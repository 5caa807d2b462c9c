import { lazy, Suspense, useState } from 'react';
import type { ActionSamples } from '../../../../src-main/common/contract/siblings';
import { useOverlay } from '../../state/overlays';
import { closeSiblings, preferSample, useSiblings } from '../../state/siblings';
import { revealNode } from '../../state/workspace-actions';
import { agreementBadge, percent, siblingLabelText } from './labels';
import { DemoModelNote } from '../simulate/DemoModelNote';
import { plural } from '../../../../src-main/common/plural';

const ObservationDiff = lazy(() => import('./ObservationDiff'));

const REAL = 'real';
const CONSENSUS = 'consensus';

/** One action's samples: agreement, the pairwise matrix, columns side by side, and a diff of any two. */
function ActionSamplesView({ actionSamples }: { actionSamples: ActionSamples }) {
  const first = actionSamples.samples[0]?.nodeId ?? '';
  const [left, setLeft] = useState(actionSamples.realNodeId ? REAL : CONSENSUS);
  const [right, setRight] = useState(actionSamples.samples.find((s) => s.nodeId !== actionSamples.consensusNodeId)?.nodeId ?? first);
  const textOf = (key: string) =>
    key === REAL ? (actionSamples.real ?? '') : key === CONSENSUS ? (actionSamples.samples.find((s) => s.nodeId === actionSamples.consensusNodeId)?.observation ?? '') : (actionSamples.samples.find((s) => s.nodeId === key)?.observation ?? '');
  const options = [
    ...(actionSamples.realNodeId ? [{ key: REAL, label: 'the real observation' }] : []),
    ...(actionSamples.consensusNodeId ? [{ key: CONSENSUS, label: 'the consensus' }] : []),
    ...actionSamples.samples.map((s) => ({ key: s.nodeId, label: siblingLabelText(s) })),
  ];
  const badge = actionSamples.agreement === null ? null : agreementBadge({ agreement: actionSamples.agreement, samples: actionSamples.samples.length, distinct: actionSamples.distinct, label: actionSamples.action.split('\n')[0]! });
  const consensus = actionSamples.samples.find((s) => s.nodeId === actionSamples.consensusNodeId);
  // Agreement is the model's certainty, not its accuracy: beside a real step, say how close the samples came to it.
  const withReal = actionSamples.samples.filter((s) => s.toReal !== null);
  const toReal = withReal.length ? withReal.reduce((sum, s) => sum + s.toReal!, 0) / withReal.length : null;
  const confidentlyWrong = toReal !== null && actionSamples.agreement !== null && actionSamples.agreement >= 0.9 && toReal < 0.6;
  return (
    <section className="action-samples" aria-label={`Samples of ${actionSamples.action.split('\n')[0]}`}>
      <div className="row">
        <code>{actionSamples.action.split('\n')[0]}</code>
        {badge && (
          <span className={`agreement-badge band-${badge.band}`} data-testid="action-agreement" title={badge.title}>
            agree with each other {percent(actionSamples.agreement!)}
          </span>
        )}
        {toReal !== null && (
          <span className="muted small" data-testid="action-to-real" title="Mean edit similarity of the samples to the real observation">
            match the real observation {percent(toReal)}
          </span>
        )}
        <span className="muted small">
          {plural(actionSamples.samples.length, 'sample')} · {actionSamples.distinct} different · spread {actionSamples.agreement === null ? '—' : percent(1 - actionSamples.agreement)}
          {actionSamples.realNodeId ? ' · with the real observation' : ' · no real step to compare with'}
        </span>
      </div>
      {confidentlyWrong && (
        <p className="warning small" role="note" data-testid="confidently-wrong">
          The samples agree with each other but not with what really happened: agreement shows how sure the model is, not whether it is right.
        </p>
      )}
      <DemoModelNote />
      {actionSamples.samples.length > 1 && (
        <table className="agreement-matrix" aria-label="Pairwise agreement">
          <thead>
            <tr>
              <th />
              {actionSamples.samples.map((s) => (
                <th key={s.nodeId}>#{s.sample}</th>
              ))}
              {actionSamples.realNodeId && <th>real</th>}
            </tr>
          </thead>
          <tbody>
            {actionSamples.samples.map((s, i) => (
              <tr key={s.nodeId}>
                <th>#{s.sample}</th>
                {actionSamples.pairwise[i]!.map((v, j) => (
                  <td key={j} style={{ background: `rgba(106, 168, 255, ${(v * 0.5).toFixed(2)})` }}>
                    {percent(v)}
                  </td>
                ))}
                {actionSamples.realNodeId && <td>{s.toReal === null ? '—' : percent(s.toReal)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {consensus && actionSamples.samples.length > 1 && (
        <div>
          <span className="muted">Consensus observation ({siblingLabelText(consensus)}, closest to the others):</span>
          <pre data-testid="consensus-observation">{consensus.observation}</pre>
        </div>
      )}
      <div className="sibling-columns">
        {actionSamples.realNodeId && (
          <div className="sibling-column real" aria-label="Real observation">
            <header>
              <span className={`badge origin-${actionSamples.realOrigin}`}>{actionSamples.realOrigin === 'imported' ? 'recorded (imported)' : 'real'}</span>
              <button className="link" onClick={() => revealNode(actionSamples.realNodeId!)}>
                show in tree
              </button>
            </header>
            <pre>{actionSamples.real}</pre>
          </div>
        )}
        {actionSamples.samples.map((s) => (
          <div
            key={s.nodeId}
            className={`sibling-column${s.nodeId === actionSamples.consensusNodeId ? ' consensus' : ''}${s.preferred ? ' preferred' : ''}`}
            aria-label={`Sample ${s.sample}`}
            data-testid="sibling-sample"
          >
            <header>
              <span className={`badge origin-${s.origin}`}>{s.origin}</span>
              <strong>{siblingLabelText(s)}</strong>
              {s.nodeId === actionSamples.consensusNodeId && actionSamples.samples.length > 1 && <span className="muted small">consensus</span>}
              <span className="muted small" title="Mean agreement with the other samples">
                ≈others {percent(s.centrality)}
              </span>
              {s.toReal !== null && <span className="muted small">≈real {percent(s.toReal)}</span>}
            </header>
            <div className="row">
              <button aria-pressed={s.preferred} onClick={() => void preferSample(s.nodeId)} title="Mark this sample as the preferred one of this action (tag 'preferred')">
                {s.preferred ? '★ Preferred' : 'Prefer'}
              </button>
              <button className="link" onClick={() => revealNode(s.nodeId)}>
                show in tree
              </button>
            </div>
            <pre>{s.observation}</pre>
          </div>
        ))}
      </div>
      {options.length > 1 && (
        <>
          <div className="sibling-diff-pick">
            <label>
              Diff
              <select value={left} onChange={(e) => setLeft(e.target.value)} aria-label="Diff from">
                {options.map((o) => (
                  <option key={o.key} value={o.key}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              against
              <select value={right} onChange={(e) => setRight(e.target.value)} aria-label="Diff against">
                {options.map((o) => (
                  <option key={o.key} value={o.key}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <Suspense fallback={<p className="muted">Loading the diff…</p>}>
            <ObservationDiff key={`${left}|${right}`} original={textOf(left)} modified={textOf(right)} domain={actionSamples.domain} label="Sample diff" />
          </Suspense>
        </>
      )}
    </section>
  );
}

/** N samples of one action side by side: against each other and the real sibling, with the preferred pick. */
export default function SiblingsView() {
  const actions = useSiblings((s) => s.actions);
  // Esc closes it wherever the focus is (Monaco's diff included); what lies under it is inert.
  useOverlay('siblings', true, closeSiblings);
  return (
    <div className="siblings-view" role="dialog" aria-label="Samples side by side">
      <header className="siblings-head">
        <strong>Samples side by side</strong>
        <span className="muted">where samples disagree, the model is unsure; pick the best one as preferred</span>
        <span className="spacer" />
        <button onClick={closeSiblings} aria-label="Close Samples side by side" title="Close (Esc)">
          Close ✕
        </button>
      </header>
      <div className="siblings-body">
        {actions.map((g) => (
          <ActionSamplesView key={`${g.parentId}:${g.action}`} actionSamples={g} />
        ))}
      </div>
    </div>
  );
}
