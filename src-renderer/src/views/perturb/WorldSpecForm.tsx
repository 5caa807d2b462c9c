import { useState } from 'react';
import type { TrajectoryRecord } from '../../../../src-main/common/trajectory/model';
import { saveWorldSpec } from '../../state/perturbation';

function factsToText(t: TrajectoryRecord): string {
  return (t.worldSpec?.facts ?? []).map((f) => `${f.subject} = ${f.value}`).join('\n');
}

/** A fictional world: free text plus `subject = value` facts every simulation must respect. */
export function WorldSpecForm({ trajectory }: { trajectory: TrajectoryRecord }) {
  const [text, setText] = useState(trajectory.worldSpec?.text ?? '');
  const [facts, setFacts] = useState(factsToText(trajectory));
  const [error, setError] = useState('');
  const save = () => {
    const parsed = [];
    for (const [i, line] of facts.split('\n').entries()) {
      if (!line.trim()) continue;
      const at = line.indexOf('=');
      if (at <= 0) {
        setError(`Fact on line ${i + 1} needs the form "subject = value".`);
        return;
      }
      parsed.push({ subject: line.slice(0, at).trim(), value: line.slice(at + 1).trim() });
    }
    setError('');
    void saveWorldSpec(trajectory.id, text.trim() || parsed.length ? { text, facts: parsed } : null);
  };
  return (
    <details className="world-spec">
      <summary>World specification{trajectory.worldSpec ? ' (set)' : ''}</summary>
      <label>
        What this world is like
        <textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} />
      </label>
      <label>
        Facts, one per line: subject = value (observations that contradict them are flagged)
        <textarea value={facts} onChange={(e) => setFacts(e.target.value)} rows={3} spellCheck={false} />
      </label>
      {error && <p className="error">{error}</p>}
      <button type="button" onClick={save}>
        Save world specification
      </button>
    </details>
  );
}
