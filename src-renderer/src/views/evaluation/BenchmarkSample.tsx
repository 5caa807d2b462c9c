import { lazy, Suspense } from 'react';
import type { BenchmarkSampleView } from '../../../../src-main/common/contract/evaluation';
import { closeSample } from '../../state/evaluation';
import { plural } from '../../../../src-main/common/plural';

const ObservationDiff = lazy(() => import('../siblings/ObservationDiff'));

const fmt = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? '—' : n.toFixed(digits));

/**
 * One evaluated sample beside its ground truth: the real turns before it, the action, and
 * the real observation against the prediction. Benchmark data: shown here only, never
 * written into the workspace, so it cannot reach an export of training data.
 */
export function BenchmarkSample({ sample }: { sample: BenchmarkSampleView }) {
  const { judge } = sample;
  return (
    <section className="benchmark-sample" aria-label={`Benchmark sample ${sample.key}`}>
      <div className="row">
        <strong>{sample.key}</strong>
        <span className="benchmark-badge" title="Test data from the benchmark: it is not added to the workspace, so no export can include it">
          benchmark data · not in the workspace
        </span>
        <span className="spacer" />
        <button onClick={closeSample}>Close sample</button>
      </div>
      <details>
        <summary>
          Environment and {plural(sample.history.length, 'earlier turn')}
        </summary>
        <pre>{sample.systemPrompt}</pre>
        {sample.history.map((t, i) => (
          <div key={i}>
            <div className="muted">Turn {i + 1}: {t.action}</div>
            <pre>{t.observation}</pre>
          </div>
        ))}
      </details>
      <div>
        <span className="muted">Action (turn {sample.history.length + 1}): </span>
        <code data-testid="benchmark-action">{sample.action}</code>
      </div>
      <div className="muted" data-testid="benchmark-judgement">
        {judge === null
          ? 'Not judged'
          : judge.valid
            ? `Judge score ${fmt(judge.score)} · ${Object.entries(judge.scores)
                .map(([d, v]) => `${d} ${v || '—'}`)
                .join(' · ')}`
            : `Failed: ${judge.error ?? 'no reason recorded'}`}
        {' · '}edit similarity {fmt(sample.metrics.editSimilarity, 3)} · exact {fmt(sample.metrics.exactMatch, 0)}
        {sample.model ? ` · model ${sample.model}` : ''}
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
          <pre data-testid="benchmark-real">{sample.real}</pre>
        </div>
        <div>
          <div className="muted">Predicted</div>
          <pre data-testid="benchmark-predicted">{sample.predicted}</pre>
        </div>
      </div>
      <Suspense fallback={<p className="muted">Loading the diff…</p>}>
        <ObservationDiff original={sample.real} modified={sample.predicted} domain={sample.domain} label="Real → predicted" />
      </Suspense>
    </section>
  );
}
