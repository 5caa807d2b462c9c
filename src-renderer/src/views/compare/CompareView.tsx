import { useState } from 'react';
import type { StepComparison, TrajectoryComparison } from '../../../../src-main/common/contract/reality';
import { closeCompare, exportReport, nextDivergence, showStep, useCompare } from '../../state/compare';
import { useOverlay } from '../../state/overlays';
import { openCorpus } from '../../state/corpus';
import { useUiStore } from '../../state/workspace-actions';
import { chooseSavePath } from '../../api/download';
import { DivergenceTimeline } from './DivergenceTimeline';
import { divergenceSummary } from './divergence-summary';
import { SimRealDiff } from './SimRealDiff';
import { TerminalPanes } from './TerminalPanes';
import { actionLine } from '../text';
import { toolCallText } from '../../../../src-main/common/trajectory/tool-call-text';
import './compare.css';

const SCORE_NAMES: Record<string, string> = {
  exactMatch: 'exact match',
  editSimilarity: 'edit similarity',
  tokenF1: 'token F1',
  lineSimilarity: 'line similarity',
  linesAdded: 'lines added',
  linesRemoved: 'lines removed',
  jsonStructure: 'JSON structure',
  promptConsistency: 'prompt',
  cwdConsistency: 'working directory',
};

const format = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

function Metrics({ metrics }: { metrics: Record<string, number> }) {
  return (
    <table className="compare-metrics" aria-label="Metrics of this step">
      <tbody>
        {Object.entries(metrics).map(([name, value]) => (
          <tr key={name}>
            <th>{SCORE_NAMES[name] ?? name}</th>
            <td>{format(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function StepList({ steps, current }: { steps: StepComparison[]; current: number }) {
  return (
    <ol className="compare-steps" aria-label="Compared steps">
      {steps.map((s, i) => (
        <li key={s.depth}>
          <button className={`${i === current ? 'selected' : ''} ${s.diverged ? 'diverged' : s.diverged === false ? 'same' : 'unpaired'}`} onClick={() => showStep(i)}>
            <span className="compare-step-no">{s.depth}</span> <span className="compare-step-action" title={s.action}>{actionLine(s.action)}</span>
            {s.metrics && <span className="compare-step-score">{format(s.metrics.editSimilarity ?? 0)}</span>}
          </button>
        </li>
      ))}
    </ol>
  );
}

function ReportExport({ comparison }: { comparison: TrajectoryComparison }) {
  const nativeDialogs = useUiStore((s) => s.app?.nativeDialogs ?? false);
  const [path, setPath] = useState(`sim-vs-real-${comparison.trajectoryId.slice(0, 8)}.html`);
  return (
    <form
      className="compare-export"
      aria-label="Export the report"
      onSubmit={(e) => {
        e.preventDefault();
        void exportReport(path.trim(), /\.json$/i.test(path.trim()) ? 'json' : 'html');
      }}
    >
      <input value={path} onChange={(e) => setPath(e.target.value)} aria-label="Report file (.html or .json)" spellCheck={false} />
      {nativeDialogs && (
        <button type="button" onClick={() => void chooseSavePath({ title: 'Export the report', defaultPath: path, extensions: ['html', 'json'] }).then((chosen) => chosen && setPath(chosen))}>
          Choose…
        </button>
      )}
      <button type="submit" disabled={!path.trim()}>
        Export report
      </button>
    </form>
  );
}

/** Simulated against real, step by step: timeline, steps, metrics, Monaco diff and (for terminals) two xterm panes. */
export default function CompareView() {
  const comparison = useCompare((s) => s.comparison);
  const index = useCompare((s) => s.step);
  const sandboxes = useCompare((s) => s.sandboxes);
  // Esc closes it (state/overlays.ts); n and p come from the shortcut table (views/shortcuts.ts).
  useOverlay('compare', true, closeCompare);

  if (!comparison) return null;
  const step = comparison.steps[index];
  const sandbox = sandboxes.find((s) => s.domain === comparison.domain);
  return (
    <div className="compare" role="dialog" aria-label="Sim vs real">
      <header className="compare-head">
        <strong>Sim vs real</strong>
        <span className="muted">
          {comparison.title} · {comparison.domain} · <span data-testid="compare-summary">{divergenceSummary(comparison.steps)}</span>
          {comparison.firstDivergence !== null && ` · first at step ${comparison.firstDivergence}`}
        </span>
        <span className="spacer" />
        {sandbox && (
          <span className="muted small" title={sandbox.available ? sandbox.sandbox : (sandbox.problem ?? undefined)} data-testid="compare-sandbox">
            Real {sandbox.domain}: {sandbox.available ? sandbox.sandbox : `unavailable — ${sandbox.problem}`}
          </span>
        )}
        <button
          onClick={() => {
            closeCompare();
            openCorpus();
          }}
          title="Replay many recorded trajectories at once: scores by domain and by step, and which of two world models is closer to reality"
        >
          All recorded sessions…
        </button>
        <button onClick={() => nextDivergence(1)} title="Next divergence (n); previous: p">
          Next divergence
        </button>
        <button onClick={closeCompare} title="Close Sim vs real (Esc)" aria-label="Close Sim vs real">
          Close ✕
        </button>
      </header>
      {comparison.steps.length === 0 ? (
        <p className="pad muted">This path has no steps to compare. Replay a recorded trajectory, or run a simulated path for real.</p>
      ) : (
        <>
          <DivergenceTimeline steps={comparison.steps} current={index} onPick={showStep} />
          <div className="compare-body">
            <aside className="compare-side">
              <StepList steps={comparison.steps} current={index} />
              {step?.metrics && <Metrics metrics={step.metrics} />}
              <ReportExport comparison={comparison} />
            </aside>
            {step && (
              <section className="compare-main">
                <div className="compare-step-head" data-testid="compare-step">
                  Step {step.depth} of {comparison.steps.at(-1)!.depth}
                  {step.diverged ? ' · diverged' : step.diverged === false ? ' · same as real' : ''}
                </div>
                <pre className="text compare-action" title={step.action}>{toolCallText(step.action) ?? step.action}</pre>
                {step.simulated === null || step.real === null ? (
                  <p className="muted">{step.real === null ? 'Not run for real yet: use “Run real” on this path.' : 'Not simulated yet: replay the trajectory.'}</p>
                ) : (
                  <>
                    <div className="compare-labels">
                      <span>Simulated</span>
                      <span>Real</span>
                    </div>
                    <SimRealDiff simulated={step.simulated} real={step.real} domain={comparison.domain} />
                    {comparison.domain === 'terminal' && <TerminalPanes simulated={step.simulated} real={step.real} />}
                  </>
                )}
              </section>
            )}
          </div>
        </>
      )}
    </div>
  );
}
