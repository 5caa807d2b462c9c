import { lazy, Suspense } from 'react';
import type { BenchmarkCaseView } from '../../../../src-main/common/contract/evaluation';
import { closeCase } from '../../state/evaluation';
import { plural } from '../../../../src-main/common/plural';

const ObservationDiff = lazy(() => import('../siblings/ObservationDiff'));

const fmt = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? '—' : n.toFixed(digits));

/**
 * One evaluated case beside its ground truth: the real turns before it, the action, and
 * the real observation against the prediction. Benchmark data: shown here only, never
 * written into the workspace, so it cannot reach an export of training data.
 */
export function BenchmarkCase({ benchmarkCase }: { benchmarkCase: BenchmarkCaseView }) {
  const { judge } = benchmarkCase;
  return (
    <section className="benchmark-case" aria-label={`Benchmark case ${benchmarkCase.key}`}>
      <div className="row">
        <strong>{benchmarkCase.key}</strong>
        <span className="benchmark-badge" title="Test data from the benchmark: it is not added to the workspace, so no export can include it">
          benchmark data · not in the workspace
        </span>
        <span className="spacer" />
        <button onClick={closeCase}>Close case</button>
      </div>
      <details>
        <summary>
          Environment and {plural(benchmarkCase.history.length, 'earlier turn')}
        </summary>
        <pre>{benchmarkCase.systemPrompt}</pre>
        {benchmarkCase.history.map((t, i) => (
          <div key={i}>
            <div className="muted">Turn {i + 1}: {t.action}</div>
            <pre>{t.observation}</pre>
          </div>
        ))}
      </details>
      <div>
        <span className="muted">Action (turn {benchmarkCase.history.length + 1}): </span>
        <code data-testid="benchmark-action">{benchmarkCase.action}</code>
      </div>
      <div className="muted" data-testid="benchmark-judgement">
        {judge === null
          ? 'Not judged'
          : judge.valid
            ? `Judge score ${fmt(judge.score)} · ${Object.entries(judge.scores)
                .map(([d, v]) => `${d} ${v || '—'}`)
                .join(' · ')}`
            : `Failed: ${judge.error ?? 'no reason recorded'}`}
        {' · '}edit similarity {fmt(benchmarkCase.metrics.editSimilarity, 3)} · exact {fmt(benchmarkCase.metrics.exactMatch, 0)}
        {benchmarkCase.model ? ` · model ${benchmarkCase.model}` : ''}
      </div>
      {judge && (judge.strengths.length > 0 || judge.weaknesses.length > 0) && (
        <ul className="muted">
          {judge.strengths.map((s, i) => (
            <li key={`s${i}`}>+ {s}</li>
          ))}
          {judge.weaknesses.map((w, i) => (
            <li key={`w${i}`}>− {w}</li>
          ))}
        </ul>
      )}
      <div className="sides">
        <div>
          <div className="muted">Real observation</div>
          <pre data-testid="benchmark-real">{benchmarkCase.real}</pre>
        </div>
        <div>
          <div className="muted">Predicted</div>
          <pre data-testid="benchmark-predicted">{benchmarkCase.predicted}</pre>
        </div>
      </div>
      <Suspense fallback={<p className="muted">Loading the diff…</p>}>
        <ObservationDiff original={benchmarkCase.real} modified={benchmarkCase.predicted} domain={benchmarkCase.domain} label="Real → predicted" />
      </Suspense>
    </section>
  );
}
