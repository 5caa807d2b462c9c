import { lazy, memo, Suspense, useEffect } from 'react';
import { createPortal } from 'react-dom';
import { followTreeForAgreement, openSiblings, setAgreementList, useSiblings, visitUnsureState } from '../../state/siblings';
import { useUiStore } from '../../state/workspace-actions';
import { agreementBadge, percent } from './labels';
import './siblings.css';
import { plural } from '../../../../src-main/common/plural';

// Monaco loads only when samples are first shown side by side.
const SiblingsView = lazy(() => import('./SiblingsView'));

/**
 * In the tree's header: where the model is unsure. A button opens the states whose samples of
 * one action agree least (filtered by a threshold, least agreement first); another shows the
 * samples of the selected step side by side. Keeps the agreement in step with the tree.
 * Memoized: it reads the stores itself, so the tree's re-render on every scroll step skips it.
 */
export const AgreementBar = memo(function AgreementBar() {
  const rows = useSiblings((s) => s.rows);
  const listOpen = useSiblings((s) => s.listOpen);
  const maxAgreement = useSiblings((s) => s.maxAgreement);
  const sideBySideOpen = useSiblings((s) => s.parentId !== null);
  const selectedParent = useUiStore((s) => (s.selectedNodeId ? (s.tree?.byId.get(s.selectedNodeId)?.parentId ?? null) : null));
  const selectedId = useUiStore((s) => s.selectedNodeId);
  useEffect(() => followTreeForAgreement(), []);
  // Esc closes the list (after any open dialog, which the overlay handler closes first).
  useEffect(() => {
    if (!listOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      setAgreementList({ listOpen: false });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [listOpen]);
  const shown = rows.filter((r) => r.agreement <= maxAgreement + 1e-9);
  // The selected node's own samples, or (for a state with samples below it) those.
  const selectedHasSamples = useSiblings((s) => selectedId !== null && s.byParent.has(selectedId));
  const sideBySideTarget = selectedHasSamples ? selectedId : selectedParent;
  return (
    <>
      <button
        className="small-button"
        aria-pressed={listOpen}
        aria-label="Samples by agreement"
        title={
          rows.length === 0
            ? 'No state has several samples of one action yet: simulate with Samples above 1, or Resample'
            : 'States whose samples of one action agree least: where the model is unsure. Samples that agree can still all be wrong: compare them with the real step side by side'
        }
        onClick={() => setAgreementList({ listOpen: !listOpen })}
        disabled={rows.length === 0}
      >
        {/* States below 90 % agreement of those with several samples: "Unsure (0)" read as "the model is right everywhere". */}
        {rows.length > 0 ? `Disagreeing: ${rows.filter((r) => r.agreement < 0.9).length} of ${rows.length}` : 'Disagreeing'}
      </button>
      <button className="small-button" disabled={!sideBySideTarget} title="Show the samples of the selected step side by side" onClick={() => sideBySideTarget && void openSiblings(sideBySideTarget)}>
        Samples side by side
      </button>
      {listOpen && (
        <div className="agreement-list" role="dialog" aria-label="States by agreement">
          <label className="inline">
            Agreement at most {percent(maxAgreement)}
            <input
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={maxAgreement}
              aria-label="Show states whose samples agree at most"
              onChange={(e) => setAgreementList({ maxAgreement: Number(e.target.value) })}
            />
          </label>
          <div className="muted small">
            {shown.length} of {rows.length} states with several samples of one action, least agreement first
          </div>
          <ol aria-label="States by agreement, least first">
            {shown.map((r) => {
              const badge = agreementBadge(r);
              return (
                <li key={r.parentId}>
                  <button onClick={() => void visitUnsureState(r.parentId)} title={badge.title}>
                    <span className={`agreement-badge band-${badge.band}`}>{badge.text}</span>
                    <span className="label">{r.label}</span>
                    <span className="muted small">
                      {plural(r.samples, 'sample')} · step {r.depth + 1}
                      {r.preferredNodeId ? ' · picked' : ''}
                    </span>
                  </button>
                </li>
              );
            })}
          </ol>
        </div>
      )}
      {/* Outside the panes, which are inert while it is open. */}
      {sideBySideOpen &&
        createPortal(
          <Suspense fallback={<div className="siblings-view">Loading the samples…</div>}>
            <SiblingsView />
          </Suspense>,
          document.body,
        )}
    </>
  );
});
