import { useState } from 'react';
import { RUBRIC } from '../../../../src-main/common/judge-reply';
import { openSample, readEvaluation, useEvaluation } from '../../state/evaluation';
import { ScoreChart } from './ScoreChart';

const fmt = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? '—' : n.toFixed(digits));

/**
 * An evaluation run (`worldloom eval --out`, or the public script's output folder): the
 * public summary per domain as a table and a chart, rule-based metrics beside it (they need
 * no judge, so a run without one still shows them); any sample opens in the studio.
 */
export function EvaluationPanel() {
  const { summary, samples } = useEvaluation();
  const [outDir, setOutDir] = useState(useEvaluation.getState().outDir);
  const [filter, setFilter] = useState('');
  const rows = samples.filter((s) => !filter || s.key.includes(filter)).slice(0, 500);
  return (
    <section className="sheet evaluation" aria-label="Evaluation">
      <form
        className="eval-open"
        onSubmit={(e) => {
          e.preventDefault();
          void readEvaluation(outDir.trim());
        }}
      >
        <label>
          Run folder (worldloom eval --out, or the public script's results)
          <input value={outDir} onChange={(e) => setOutDir(e.target.value)} spellCheck={false} />
        </label>
        <button type="submit" disabled={!outDir.trim()}>
          Read run
        </button>
      </form>
      {summary && (
        <div className="eval-results">
          <div>
            <table className="scores" aria-label="Scores">
              <thead>
                <tr>
                  <th>domain</th>
                  <th>n</th>
                  <th>valid</th>
                  <th>failed</th>
                  {RUBRIC.map((d) => (
                    <th key={d}>{d}</th>
                  ))}
                  <th>total_score</th>
                  <th>exact</th>
                  <th>edit sim</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(summary.domains).map(([subtask, d]) => (
                  <tr key={subtask}>
                    <td>{d.display}</td>
                    <td>{d.total}</td>
                    <td>{d.valid}</td>
                    <td>{d.failed}</td>
                    {RUBRIC.map((dim) => (
                      <td key={dim}>{fmt(d[dim])}</td>
                    ))}
                    <td>
                      <strong>{fmt(d.total_score)}</strong>
                    </td>
                    <td>{fmt(summary.worldloom.domains[subtask]?.rule_based.exactMatch, 3)}</td>
                    <td>{fmt(summary.worldloom.domains[subtask]?.rule_based.editSimilarity, 3)}</td>
                  </tr>
                ))}
                <tr>
                  <td>Overall</td>
                  <td>{summary.total_samples}</td>
                  <td>{summary.valid}</td>
                  <td>{summary.failed}</td>
                  {RUBRIC.map((dim) => (
                    <td key={dim} />
                  ))}
                  <td>
                    <strong>{fmt(summary.overall)}</strong>
                  </td>
                  <td>{fmt(summary.worldloom.rule_based.exactMatch, 3)}</td>
                  <td>{fmt(summary.worldloom.rule_based.editSimilarity, 3)}</td>
                </tr>
              </tbody>
            </table>
            <p className="muted">
              Overall pools every valid sample (as the public script does); mean of the domains: {fmt(summary.worldloom.macro_overall)}
              {summary.worldloom.unjudged > 0 ? ` · ${summary.worldloom.unjudged} not judged` : ''}
              {summary.worldloom.models.length > 0 ? ` · model ${summary.worldloom.models.join(', ')}` : ''}
              {summary.worldloom.judges.length > 0 ? ` · judge ${summary.worldloom.judges.join(', ')}` : ''}
            </p>
          </div>
          <ScoreChart summary={summary} />
          <div className="eval-samples">
            <input placeholder="filter samples (e.g. terminal/)" value={filter} onChange={(e) => setFilter(e.target.value)} aria-label="Filter samples" />
            <ul aria-label="Evaluated samples">
              {rows.map((s) => (
                <li key={s.key}>
                  <button className="link" title={s.note} onClick={() => void openSample(s.key)}>
                    {s.key}
                  </button>{' '}
                  <span className="muted">
                    {s.failed ? s.note || 'judge failed' : s.judged ? `score ${fmt(s.score)}` : 'not judged'} · edit {fmt(s.editSimilarity, 2)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </section>
  );
}
