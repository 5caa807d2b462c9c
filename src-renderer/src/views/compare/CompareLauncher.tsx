import { lazy, Suspense, useState } from 'react';
import { createPortal } from 'react-dom';
import { cancelRealityJob, openCompare, replay, useCompare } from '../../state/compare';
import { useUiStore } from '../../state/workspace-actions';
import { RunRealForm } from './RunRealForm';
import { StepCounts } from './StepCounts';

// Monaco and xterm load only when the comparison is first opened.
const CompareView = lazy(() => import('./CompareView'));
const CorpusView = lazy(() => import('./CorpusView'));

/** Toolbar entry to sim vs real: replay, run real on the selected node, and the side-by-side view. */
export function CompareLauncher() {
  const trajectory = useUiStore((s) => s.trajectory);
  const selected = useUiStore((s) => (s.selectedNodeId ? s.tree?.byId.get(s.selectedNodeId) : undefined));
  const open = useCompare((s) => s.open);
  const job = useCompare((s) => s.job);
  const corpusOpen = useCompare((s) => s.corpus.open);
  const [asking, setAsking] = useState<string | null>(null);
  if (!trajectory) return null;
  const realDomain = ['terminal', 'mcp', 'web'].includes(trajectory.domain);
  return (
    <>
      {job ? (
        <span className="reality-job" role="status" data-testid="reality-job">
          {/* The progress gives way in a narrow toolbar; Stop never does. */}
          <span className="reality-job-text" title={job.label}>
            {job.label}
            <StepCounts job={job} />…
          </span>
          <button onClick={() => void cancelRealityJob()}>Stop</button>
        </span>
      ) : (
        <>
          <button onClick={() => void replay(trajectory.id)} title="Simulate every recorded real step from the real history">
            Replay
          </button>
          {realDomain && selected && selected.parentId !== null && (
            <button onClick={() => setAsking(selected.id)} title="Run this path's actions for real: the next dialog shows the sandbox and asks for the settings">
              Run real…
            </button>
          )}
        </>
      )}
      <button onClick={() => void openCompare(trajectory.id, selected?.parentId ? selected.id : undefined)}>Sim vs real</button>
      {/* Outside the toolbar, which is inert while they are open. */}
      {asking && createPortal(<RunRealForm nodeId={asking} onDone={() => setAsking(null)} />, document.body)}
      {open &&
        createPortal(
          <Suspense fallback={<div className="compare">Loading the comparison…</div>}>
            <CompareView />
          </Suspense>,
          document.body,
        )}
      {corpusOpen &&
        createPortal(
          <Suspense fallback={<div className="compare">Loading…</div>}>
            <CorpusView />
          </Suspense>,
          document.body,
        )}
    </>
  );
}
