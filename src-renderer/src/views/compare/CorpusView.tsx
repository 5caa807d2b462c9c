import { useState } from 'react';
import type { SimVsRealReport } from '../../../../src-main/common/contract/reality';
import { cancelRealityJob, openCompare, useCompare } from '../../state/compare';
import { changeCorpusFilter, closeCorpus, compareCorpusModels, exportCorpusReport, replayCorpus } from '../../state/corpus';
import { useOverlay } from '../../state/overlays';
import { actionLine } from '../text';
import { StepChart } from './StepChart';
import { StepCounts } from './StepCounts';
import './compare.css';

const score = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(3));

function DomainTable({ report }: { report: SimVsRealReport }) {
  return (
    <table className="corpus-table" aria-label="Scores by domain">
      <thead>
        <tr><th>domain</th><th>trajectories</th><th>steps</th><th>similarity</th><th>exact match</th><th>token F1</th></tr>
      </thead>
      <tbody>
        {Object.entries(report.byDomain).map(([domain, d]) => (
          <tr key={domain}>
            <th>{domain}</th><td>{d.trajectories}</td><td>{d.steps}</td><td>{score(d.metrics.editSimilarity)}</td><td>{score(d.metrics.exactMatch)}</td><td>{score(d.metrics.tokenF1)}</td>
          </tr>
        ))}
        <tr className="corpus-all">
          <th>all</th><td>{report.trajectories.length}</td><td>{report.byStep.reduce((n, s) => n + s.steps, 0)}</td>
          <td>{score(report.overall.editSimilarity)}</td><td>{score(report.overall.exactMatch)}</td><td>{score(report.overall.tokenF1)}</td>
        </tr>
      </tbody>
    </table>
  );
}

function ModelAb() {
  const models = useCompare((s) => s.corpus.models);
  const ab = useCompare((s) => s.corpus.ab);
  const [a, setA] = useState('');
  const [b, setB] = useState('');
  const first = a || models[0]?.key || '';
  const second = b || models.find((m) => m.key !== first)?.key || '';
  if (models.length < 2) {
    return (
      <p className="muted" data-testid="corpus-ab-hint">
        {models.length === 1 ? `Replayed with ${models[0]!.label}. ` : ''}To see which world model is closer to reality, load another one (a fine-tune, a quantised file, a
        smaller model) in the model panel and replay again: the same steps, with the same seeds, are then compared here side by side.
      </p>
    );
  }
  return (
    <section aria-label="Which world model is closer to reality">
      <form
        className="corpus-ab-form"
        onSubmit={(e) => {
          e.preventDefault();
          void compareCorpusModels([first, second]);
        }}
      >
        <label>
          Model A
          <select value={first} onChange={(e) => setA(e.target.value)}>
            {models.map((m) => <option key={m.key} value={m.key}>{m.label} ({m.predictions} predictions)</option>)}
          </select>
        </label>
        <label>
          Model B
          <select value={second} onChange={(e) => setB(e.target.value)}>
            {models.map((m) => <option key={m.key} value={m.key}>{m.label} ({m.predictions} predictions)</option>)}
          </select>
        </label>
        <button type="submit" disabled={!first || !second || first === second}>Compare models</button>
      </form>
      {ab && (
        <div data-testid="corpus-ab">
          <div className="corpus-models">
            {ab.models.map((m) => (
              <div key={m.key}>
                <h4>{m.label}</h4>
                <p className="muted small">{m.streamTokensPerSecond.toFixed(1)} tokens/s per stream</p>
                <DomainTable report={m.report} />
              </div>
            ))}
          </div>
          <StepChart lines={ab.models.map((m) => ({ label: m.label, report: m.report }))} />
          <h4>Where they differ most ({ab.score})</h4>
          {ab.differences.length === 0 ? (
            <p className="muted">No step where their scores differ.</p>
          ) : (
            <table className="corpus-table" aria-label="Steps where the models differ most">
              <thead><tr><th>trajectory</th><th>step</th><th>action</th><th>{ab.models[0]!.label}</th><th>{ab.models[1]!.label}</th><th /></tr></thead>
              <tbody>
                {ab.differences.map((d) => (
                  <tr key={`${d.trajectoryId}:${d.depth}`}>
                    <td>{d.title}</td><td>{d.depth}</td><td className="corpus-action" title={d.action}>{actionLine(d.action)}</td>
                    <td>{score(d.predictions[0]?.score)}</td><td>{score(d.predictions[1]?.score)}</td>
                    <td><button onClick={() => { closeCorpus(); void openCompare(d.trajectoryId); }}>Open</button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </section>
  );
}

/** Sim vs real over many recorded trajectories: replay them all at once, scores by domain and by step, and a model A/B. */
export default function CorpusView() {
  const corpus = useCompare((s) => s.corpus);
  const job = useCompare((s) => s.job);
  const [path, setPath] = useState('sim-vs-real-corpus.html');
  useOverlay('corpus', true, closeCorpus);
  const report = corpus.report;
  return (
    <div className="compare corpus" role="dialog" aria-label="Sim vs real over recorded sessions">
      <header className="compare-head">
        <strong>Sim vs real over recorded sessions</strong>
        <span className="spacer" />
        <button onClick={closeCorpus} title="Close (Esc)" aria-label="Close Sim vs real over recorded sessions">Close ✕</button>
      </header>
      <div className="corpus-body">
        <form
          className="corpus-form"
          onSubmit={(e) => {
            e.preventDefault();
            void replayCorpus();
          }}
        >
          <label>
            Recorded trajectories to replay: those with a step this filter selects (the export filter language)
            <input value={corpus.filter} onChange={(e) => changeCorpusFilter(e.target.value)} spellCheck={false} placeholder="origin in (real, imported) and domain = terminal" />
          </label>
          {job ? (
            <span role="status" data-testid="corpus-job">
              {job.label} <StepCounts job={job} /> <button type="button" onClick={() => void cancelRealityJob()}>Stop</button>
            </span>
          ) : (
            <button type="submit" disabled={!corpus.filter.trim()} title="Every step of every selected trajectory is simulated from its real history, as many at once as the model takes">
              Replay with the loaded model
            </button>
          )}
        </form>
        {report && (
          <>
            <p data-testid="corpus-summary">
              {report.trajectories.length} trajectories · {report.byStep.reduce((n, s) => n + s.steps, 0)} steps compared
              {corpus.tokensPerSecond ? ` · ${corpus.tokensPerSecond.toFixed(1)} tokens/s over the replay` : ''}
              {corpus.failures.length > 0 && <span className="step-counts-failed"> · {corpus.failures.length} steps failed</span>}
            </p>
            <DomainTable report={report} />
            <StepChart lines={[{ label: 'all', report }]} />
            <details>
              <summary>Each trajectory</summary>
              <table className="corpus-table" aria-label="Each trajectory">
                <thead><tr><th>trajectory</th><th>domain</th><th>steps</th><th>similarity</th><th>first divergence</th><th /></tr></thead>
                <tbody>
                  {report.trajectories.map((t) => (
                    <tr key={t.trajectoryId}>
                      <td>{t.title}</td><td>{t.domain}</td><td>{t.steps.length}</td><td>{score(t.aggregate.editSimilarity)}</td><td>{t.firstDivergence ?? 'none'}</td>
                      <td><button onClick={() => { closeCorpus(); void openCompare(t.trajectoryId); }}>Open</button></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
            <h3>Which world model is closer to reality</h3>
            <ModelAb />
            <form
              className="compare-export"
              aria-label="Export the corpus report"
              onSubmit={(e) => {
                e.preventDefault();
                void exportCorpusReport(path.trim());
              }}
            >
              <input value={path} onChange={(e) => setPath(e.target.value)} aria-label="Report file (.html or .json)" spellCheck={false} />
              <button type="submit" disabled={!path.trim()}>Export report</button>
            </form>
          </>
        )}
      </div>
    </div>
  );
}
