import { lazy, Suspense, useState } from 'react';
import type { SiblingGroup } from '../../../../src-main/common/contract/siblings';
import { useOverlay } from '../../state/overlays';
import { closeSiblings, preferSample, useSiblings } from '../../state/siblings';
import { revealNode } from '../../state/store';
import { agreementBadge, percent, variantLabel } from './labels';
import { plural } from '../../../../src-main/common/plural';

const ObservationDiff = lazy(() => import('./ObservationDiff'));

const REAL = 'real';
const CONSENSUS = 'consensus';

/** One action's samples: agreement, the pairwise matrix, columns side by side, and a diff of any two. */
function Group({ group }: { group: SiblingGroup }) {
  const first = group.samples[0]?.nodeId ?? '';
  const [left, setLeft] = useState(group.realNodeId ? REAL : CONSENSUS);
  const [right, setRight] = useState(group.samples.find((s) => s.nodeId !== group.consensusNodeId)?.nodeId ?? first);
  const textOf = (key: string) =>
    key === REAL ? (group.real ?? '') : key === CONSENSUS ? (group.samples.find((s) => s.nodeId === group.consensusNodeId)?.observation ?? '') : (group.samples.find((s) => s.nodeId === key)?.observation ?? '');
  const options = [
    ...(group.realNodeId ? [{ key: REAL, label: 'the real observation' }] : []),
    ...(group.consensusNodeId ? [{ key: CONSENSUS, label: 'the consensus' }] : []),
    ...group.samples.map((s) => ({ key: s.nodeId, label: variantLabel(s) })),
  ];
  const badge = group.agreement === null ? null : agreementBadge({ agreement: group.agreement, samples: group.samples.length, distinct: group.distinct, label: group.action.split('\n')[0]! });
  const consensus = group.samples.find((s) => s.nodeId === group.consensusNodeId);
  return (
    <section className="sibling-group" aria-label={`Samples of ${group.action.split('\n')[0]}`}>
      <div className="row">
        <code>{group.action.split('\n')[0]}</code>
        {badge && (
          <span className={`agreement-badge band-${badge.band}`} data-testid="group-agreement" title={badge.title}>
            agreement {percent(group.agreement!)}
          </span>
        )}
        <span className="muted small">
          {plural(group.samples.length, 'sample')} · {group.distinct} different · spread {group.agreement === null ? '—' : percent(1 - group.agreement)}
          {group.realNodeId ? ' · with the real observation' : ' · no real step to compare with'}
        </span>
      </div>
      {group.samples.length > 1 && (
        <table className="agreement-matrix" aria-label="Pairwise agreement">
          <thead>
            <tr>
              <th />
              {group.samples.map((s) => (
                <th key={s.nodeId}>#{s.sample}</th>
              ))}
              {group.realNodeId && <th>real</th>}
            </tr>
          </thead>
          <tbody>
            {group.samples.map((s, i) => (
              <tr key={s.nodeId}>
                <th>#{s.sample}</th>
                {group.pairwise[i]!.map((v, j) => (
                  <td key={j} style={{ background: `rgba(106, 168, 255, ${(v * 0.5).toFixed(2)})` }}>
                    {percent(v)}
                  </td>
                ))}
                {group.realNodeId && <td>{s.toReal === null ? '—' : percent(s.toReal)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {consensus && group.samples.length > 1 && (
        <div>
          <span className="muted">Consensus observation ({variantLabel(consensus)}, closest to the others):</span>
          <pre data-testid="consensus-observation">{consensus.observation}</pre>
        </div>
      )}
      <div className="sibling-columns">
        {group.realNodeId && (
          <div className="sibling-column real" aria-label="Real observation">
            <header>
              <span className={`badge origin-${group.realOrigin}`}>{group.realOrigin === 'imported' ? 'recorded (imported)' : 'real'}</span>
              <button className="link" onClick={() => revealNode(group.realNodeId!)}>
                show in tree
              </button>
            </header>
            <pre>{group.real}</pre>
          </div>
        )}
        {group.samples.map((s) => (
          <div
            key={s.nodeId}
            className={`sibling-column${s.nodeId === group.consensusNodeId ? ' consensus' : ''}${s.preferred ? ' preferred' : ''}`}
            aria-label={`Sample ${s.sample}`}
            data-testid="sibling-sample"
          >
            <header>
              <span className={`badge origin-${s.origin}`}>{s.origin}</span>
              <strong>{variantLabel(s)}</strong>
              {s.nodeId === group.consensusNodeId && group.samples.length > 1 && <span className="muted small">consensus</span>}
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
            <ObservationDiff key={`${left}|${right}`} original={textOf(left)} modified={textOf(right)} domain={group.domain} label="Sample diff" />
          </Suspense>
        </>
      )}
    </section>
  );
}

/** N samples of one action side by side: against each other and the real sibling, with the preferred pick. */
export default function SiblingsView() {
  const groups = useSiblings((s) => s.groups);
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
        {groups.map((g) => (
          <Group key={`${g.parentId}:${g.action}`} group={g} />
        ))}
      </div>
    </div>
  );
}
