import { useState } from 'react';
import { RUBRIC } from '../../../../src-main/common/judge-reply';
import { readEvaluation, showCase, useEvaluation } from '../../state/evaluation';
import { BenchmarkCase } from './BenchmarkCase';
import { RunForm } from './RunForm';
import { ScoreChart } from './ScoreChart';
import './evaluation.css';

const fmt = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? '—' : n.toFixed(digits));

/**
 * Evaluation: start a run of a model on an AgentWorldBench folder (with its progress, cancel
 * and resume), or read a finished one (`worldloom eval --out`, or the public script's output
 * folder): the public summary per domain as a table and a chart with axes, every failure with
 * its reason, and any case beside its ground truth, kept out of the workspace.
 */
export function EvaluationPanel() {
  const { summary, cases, benchmarkCase, outDir: readDir } = useEvaluation();
  const [outDir, setOutDir] = useState(readDir);
  // A run started here is read when it ends: its folder then shows as the one read.
  const [shownReadDir, setShownReadDir] = useState(readDir);
  if (shownReadDir !== readDir) {
    setShownReadDir(readDir);
    setOutDir(readDir);
  }
  const [filter, setFilter] = useState('');
  const rows = cases.filter((s) => !filter || s.key.includes(filter)).slice(0, 500);
  const failures = summary ? Object.entries(summary.worldloom.failure_reasons) : [];
  return (
    <section className="sheet evaluation" aria-label="Evaluation">
      <div className="wide">
        <p className="muted eval-about">
          Scores the loaded world model on AgentWorldBench: for each benchmark case it predicts the observation from the real history, then rule-based
          metrics (and, with a judge model, the public rubric) compare it with what really happened. Results are written as the public evaluation script
          writes them; an earlier run's folder can be read below. Benchmark cases are only shown, never added to the workspace.
        </p>
      </div>
      <RunForm />
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
                    <td title={Object.keys(summary.worldloom.domains[subtask]?.failure_reasons ?? {}).join('\n')}>{d.failed}</td>
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
              Overall pools every valid case (as the public script does); mean of the domains: {fmt(summary.worldloom.macro_overall)}
              {summary.worldloom.unjudged > 0 ? ` · ${summary.worldloom.unjudged} not judged` : ''}
              {summary.worldloom.models.length > 0 ? ` · model ${summary.worldloom.models.join(', ')}` : ''}
              {summary.worldloom.judges.length > 0 ? ` · judge ${summary.worldloom.judges.join(', ')}` : ''}
            </p>
            {failures.length > 0 && (
              <div>
                <strong>Why cases failed</strong>
                <ul className="eval-failures" aria-label="Failure reasons">
                  {failures.map(([reason, count]) => (
                    <li key={reason}>
                      {count} × {reason}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
          <ScoreChart summary={summary} />
          <div className="eval-cases">
            <input placeholder="filter cases (e.g. terminal/)" value={filter} onChange={(e) => setFilter(e.target.value)} aria-label="Filter cases" />
            <ul aria-label="Evaluated cases">
              {rows.map((s) => (
                <li key={s.key}>
                  <button className="link" title={s.note} onClick={() => void showCase(s.key)}>
                    {s.key}
                  </button>{' '}
                  <span className={s.failed ? 'case-failed' : 'muted'}>
                    {s.failed ? `failed: ${s.note || 'no reason recorded'}` : s.judged ? `score ${fmt(s.score)}` : 'not judged'} · edit {fmt(s.editSimilarity, 2)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
          {benchmarkCase && <BenchmarkCase benchmarkCase={benchmarkCase} />}
        </div>
      )}
    </section>
  );
}
