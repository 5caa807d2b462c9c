import { useEffect, useState } from 'react';
import type { Domain, NodeRecord } from '../../../../src-main/common/trajectory/model';
import { loadCatalog, perturb, usePerturbation } from '../../state/perturbation';
import { useSimulation } from '../../state/simulation';
import { UserPerturbations } from './UserPerturbations';

/** The largest seed the contract takes (perturb.run's seed); a larger one is refused. */
const MAX_SEED = 2 ** 31 - 1;

/** Inject an edge case at this step: one kind, or a sweep of several, each a sibling. */
export function PerturbPanel({ node, domain }: { node: NodeRecord; domain: Domain }) {
  const kinds = usePerturbation((s) => s.kinds);
  const running = usePerturbation((s) => s.running);
  const modelLoaded = useSimulation((s) => Boolean(s.model?.loaded));
  const [mode, setMode] = useState<'transform' | 'instruction'>('transform');
  const [chosen, setChosen] = useState<string[]>([]);
  const [seed, setSeed] = useState(0);
  const [paramsText, setParamsText] = useState('');
  const [paramsError, setParamsError] = useState('');

  useEffect(() => {
    void loadCatalog(domain);
  }, [domain]);

  const single = chosen.length === 1 ? kinds.find((k) => k.id === chosen[0]) : undefined;

  /** Parameters can be edited when one kind is chosen; they start from its defaults. */
  const choose = (next: string[]) => {
    setChosen(next);
    const only = next.length === 1 ? kinds.find((k) => k.id === next[0]) : undefined;
    setParamsText(only ? JSON.stringify(only.defaults, null, 2) : '');
    setParamsError('');
  };
  const toggle = (id: string) => choose(chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id]);
  const run = () => {
    let params: Record<string, unknown> | undefined;
    if (single && paramsText.trim()) {
      try {
        params = JSON.parse(paramsText) as Record<string, unknown>;
      } catch (err) {
        setParamsError(`Parameters are not valid JSON: ${(err as Error).message}`);
        return;
      }
    }
    void perturb(node.id, mode, chosen.map((kindId) => ({ kindId, ...(params ? { params } : {}) })), seed);
  };

  return (
    <details className="perturb">
      <summary>Perturb this step</summary>
      <div role="group" aria-label="Perturbation mode" className="row">
        <label className="inline">
          <input type="radio" checked={mode === 'transform'} onChange={() => setMode('transform')} /> transform the observation
        </label>
        <label className="inline">
          <input type="radio" checked={mode === 'instruction'} onChange={() => setMode('instruction')} /> instruct the model
        </label>
      </div>
      <ul className="kinds" aria-label="Perturbation kinds">
        {kinds.map((k) => (
          <li key={k.id}>
            <label className="inline" title={k.description}>
              <input type="checkbox" checked={chosen.includes(k.id)} onChange={() => toggle(k.id)} /> {k.label}
              {k.source !== 'catalog' && <span className="muted"> ({k.source})</span>}
            </label>
          </li>
        ))}
      </ul>
      <div className="row">
        <button type="button" className="link" onClick={() => choose(kinds.map((k) => k.id))}>
          whole catalog
        </button>
        <button type="button" className="link" onClick={() => choose([])}>
          none
        </button>
      </div>
      {single && (
        <label>
          Parameters of “{single.label}”
          <textarea value={paramsText} onChange={(e) => setParamsText(e.target.value)} rows={4} spellCheck={false} />
        </label>
      )}
      {paramsError && <p className="error">{paramsError}</p>}
      <label>
        Seed
        <input type="number" min={0} max={MAX_SEED} value={seed} onChange={(e) => setSeed(Math.min(MAX_SEED, Math.max(0, Math.floor(Number(e.target.value) || 0))))} />
      </label>
      {mode === 'instruction' && !modelLoaded && <p className="muted">Instruction mode needs a loaded world model.</p>}
      <button type="button" disabled={running || chosen.length === 0 || (mode === 'instruction' && !modelLoaded)} onClick={run}>
        {running ? 'Working…' : chosen.length > 1 ? `Sweep ${chosen.length} perturbations` : 'Perturb'}
      </button>
      <UserPerturbations domain={domain} />
    </details>
  );
}

/** Which perturbation made a node, and how: a transformed observation reads very differently from one the model was told to play out. */
export function PerturbationLine({ node }: { node: NodeRecord }) {
  const record = node.provenance.perturbations?.[0] as { kind?: unknown; mode?: unknown } | undefined;
  if (!record || typeof record.kind !== 'string') return null;
  const how = record.mode === 'instruction' ? 'the world model was instructed to play it out' : 'the observation was transformed';
  return (
    <p className="muted" data-testid="node-perturbation">
      Perturbation {record.kind}: {how}.
    </p>
  );
}
