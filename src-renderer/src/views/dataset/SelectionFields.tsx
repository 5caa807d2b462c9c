// Which examples: quick filters, a free filter expression, and a part of the tree.
import { DOMAINS, ORIGINS, type Domain, type Origin } from '../../../../src-main/common/trajectory/model';
import { effectiveFilter, type ExportForm, type ScopeChoice } from '../../state/dataset';

interface Props {
  form: ExportForm;
  change: (patch: Partial<ExportForm>) => void;
  hasTrajectory: boolean;
  hasNode: boolean;
  filterError: { message: string; column: number } | null;
}

export function SelectionFields({ form, change, hasTrajectory, hasNode, filterError }: Props) {
  const scopes: [ScopeChoice, string, boolean][] = [
    ['all', 'Whole workspace', true],
    ['trajectory', 'Open trajectory', hasTrajectory],
    ['path', 'Path to the selected node', hasNode],
    ['subtree', 'Subtree of the selected node', hasNode],
  ];
  return (
    <fieldset className="dataset-fieldset">
      <legend>Examples</legend>
      <div className="dataset-grid">
        <label>
          Domain
          <select value={form.domain} onChange={(e) => change({ domain: e.target.value as Domain | '' })}>
            <option value="">any</option>
            {DOMAINS.map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        </label>
        <label>
          Origin
          <select value={form.origin} onChange={(e) => change({ origin: e.target.value as Origin | '' })}>
            <option value="">any</option>
            {ORIGINS.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        <label>
          Minimum rating
          <select value={form.minRating ?? ''} onChange={(e) => change({ minRating: e.target.value ? Number(e.target.value) : null })}>
            <option value="">any</option>
            {[1, 2, 3, 4, 5].map((r) => (
              <option key={r} value={r}>
                {'★'.repeat(r)}
              </option>
            ))}
          </select>
        </label>
        <label className="dataset-check">
          <input type="checkbox" checked={form.starredOnly} onChange={(e) => change({ starredOnly: e.target.checked })} />
          Starred only
        </label>
        <label>
          Part of the tree
          <select value={form.scope} onChange={(e) => change({ scope: e.target.value as ScopeChoice })}>
            {scopes.map(([value, label, enabled]) => (
              <option key={value} value={value} disabled={!enabled}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        Filter expression
        <input
          value={form.expression}
          onChange={(e) => change({ expression: e.target.value })}
          placeholder='e.g. tag = good and not perturbation and created >= 2025-06-01'
          spellCheck={false}
          aria-invalid={filterError !== null}
        />
      </label>
      {filterError ? (
        <p role="alert" className="dataset-error">
          {filterError.message}
        </p>
      ) : (
        effectiveFilter(form) && <p className="muted dataset-effective">Filter: <code>{effectiveFilter(form)}</code></p>
      )}
    </fieldset>
  );
}
